import WatchPairWire

extension ControlResponse {
    /// Whether this line answers request `id`: a response (not a stream event) with that id. With
    /// `soleRequest`, an error with `id: null` too: the daemon could not read one of our lines, and with
    /// a single request in flight that line was this request.
    public func isResponse(to id: Int64, soleRequest: Bool = false) -> Bool {
        guard event == nil else { return false }
        return self.id == id || (soleRequest && self.id == nil && ok == false)
    }
}
