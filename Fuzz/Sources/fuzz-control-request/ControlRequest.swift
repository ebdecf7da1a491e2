import FuzzSupport
import WatchPairHost
import WatchPairWire

/// One control line (`ControlRequestParser.parse`, the daemons' entry point for a request line; it
/// reads the line with `ControlRequest(line:)` and validates it).
///
/// Properties: an accepted request's own line is accepted again as the same request.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlRequest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(start, count)
    guard case .success(let request) = ControlRequestParser.parse(input) else { return 0 }
    let line = request.lineBytes.dropLast()
    check(
        ControlRequestParser.parse(line) == .success(request),
        "\(String(decoding: line, as: UTF8.self)) does not read back as \(request)")
    return 0
}
