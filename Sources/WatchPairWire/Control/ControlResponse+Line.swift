/// Response and stream-event lines written member by member (``JSONMemberWriter``), without a
/// `JSONValue` tree for the envelope: the same bytes as ``ControlLine/lineBytes`` of ``json``.
///
/// Every control response and event goes through here; at 64 messages in flight the control socket's
/// JSON was about 9% of phoned's samples (BENCHMARKS.md, "Changes that mattered": issue 10's fifth and
/// sixth rounds). The members are added in canonical order (`data`, `error`, `event`, `id`, `ok`,
/// `result`); `ControlResponseLineTests` holds the bytes equal to the tree's.
extension ControlResponse {
    /// One line: ``json``'s canonical text and a newline.
    public var lineBytes: [UInt8] {
        var line = JSONMemberWriter()
        if let data { line.add("data", json: data) }
        if let error {
            line.add("error") { object in
                object.add("code", integer: Int64(error.code))
                object.add("message", string: error.message)
                object.add("name", string: error.name)
            }
        }
        if let event { line.add("event", string: event) }
        Self.addEnvelope(id: id, ok: ok, to: &line)
        if let result { line.add("result", json: result) }
        return line.finish(newline: true)
    }

    /// A success response's line, its result's members added by `result` (in canonical order).
    public static func successLine(_ id: Int64, capacity: Int = 128, result: (inout JSONMemberWriter) -> Void) -> [UInt8] {
        var line = JSONMemberWriter(capacity: capacity)
        addEnvelope(id: id, ok: true, to: &line)
        line.add("result", object: result)
        return line.finish(newline: true)
    }

    /// A stream event's line, its data's members added by `data` (in canonical order).
    public static func streamEventLine(
        _ id: Int64, _ kind: String, capacity: Int = 256, data: (inout JSONMemberWriter) -> Void
    ) -> [UInt8] {
        var line = JSONMemberWriter(capacity: capacity)
        line.add("data", object: data)
        line.add("event", string: kind)
        addEnvelope(id: id, ok: nil, to: &line)
        return line.finish(newline: true)
    }

    /// `id` (null when the request had none) and `ok` when present.
    private static func addEnvelope(id: Int64?, ok: Bool?, to line: inout JSONMemberWriter) {
        if let id { line.add("id", integer: id) } else { line.add("id", json: .null) }
        if let ok { line.add("ok", bool: ok) }
    }
}
