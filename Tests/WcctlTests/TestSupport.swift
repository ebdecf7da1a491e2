import Glibc
import Testing
import WatchPairWire

@testable import WatchPairCLI

/// The outcome of one `wcctl` run.
struct RunResult {
    var status: Int32
    var out: String
    var outBytes: [UInt8]
    var err: String
}

/// A pipe whose read end is the interrupt descriptor of a run; writing to it is the test's Ctrl-C.
final class InterruptPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0)
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        _ = close(readEnd)
        _ = close(writeEnd)
    }
}

/// Runs `wcctl` in process with captured output, talking to `server` (through `$WCCTL_CONTROL`)
/// unless `environment` says otherwise.
func runWcctl(
    _ arguments: [String], server: FakeControlServer? = nil, environment: [String: String] = [:],
    standardInput: Int32 = STDIN_FILENO, interrupt: InterruptPipe = InterruptPipe(),
    streams: CapturedStreams = CapturedStreams()
) -> RunResult {
    var variables = environment
    if let server, variables["WCCTL_CONTROL"] == nil { variables["WCCTL_CONTROL"] = server.path }
    let fd = interrupt.readEnd
    let env = CommandEnvironment(
        variables: variables, streams: streams, standardInput: standardInput,
        interruptDescriptor: { () throws(CLIError) -> Int32 in fd })
    // The pipe must outlive the run: released early, its descriptors would be closed while wcctl still
    // polls `fd`, and the number could meanwhile belong to another test's socket.
    let status = withExtendedLifetime(interrupt) { WcctlMain.run(arguments: arguments, environment: env) }
    return RunResult(status: status, out: streams.out, outBytes: streams.outBytes, err: streams.err)
}

/// Runs `body` with a fake control server, then stops the server and removes its files.
func withServer<T>(
    _ handler: @escaping FakeControlServer.Handler, _ body: (FakeControlServer) throws -> T
) throws -> T {
    let server = try FakeControlServer(handler: handler)
    defer { server.stop() }
    return try body(server)
}

/// Parses JSON text in tests (crashes the test on bad text, which is a bug in the test).
func json(_ text: String) -> JSONValue {
    try! JSONValue.parse(text)
}

/// A request with its `id` removed, as canonical text, to compare request shapes.
func shape(_ request: JSONValue) -> String {
    guard case .object(var o) = request else { return request.canonicalText }
    o["id"] = nil
    return JSONValue.object(o).canonicalText
}

/// A fresh, short temporary directory (for socket paths).
func makeTempDirectory() -> String {
    var template = Array("/tmp/wcctl-test.XXXXXX".utf8CString)
    return String(cString: mkdtemp(&template)!)
}
