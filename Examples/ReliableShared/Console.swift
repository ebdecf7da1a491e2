import Foundation
import WatchConnection

/// The examples' "user interface": one line per event on stdout, `event {json}`, and commands from stdin.
public enum Console {
    private static let lock = NSLock()

    /// Prints `event {json}` (keys sorted) and flushes, so a test (or a person) can follow along.
    public static func report(_ event: String, _ payload: [String: Any] = [:]) {
        let data = (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])) ?? Data("{}".utf8)
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardOutput.write(Data((event + " " + String(decoding: data, as: UTF8.self) + "\n").utf8))
    }

    /// Prints `failed {request, code, error}`: a request that ended without its response.
    public static func failure(_ requestType: String, _ error: any Error) {
        let code = (error as? WatchConnectionError)?.code ?? 7001
        report("failed", ["request": requestType, "code": code, "error": "\(error)"])
    }

    /// The lines typed on stdin, as `(command, argument)`; read on a thread of their own. At end of input
    /// the stream ends and the app keeps running (as a service under systemd, stdin is /dev/null).
    public static func commands() -> AsyncStream<(command: String, argument: String)> {
        let (stream, input) = AsyncStream.makeStream(of: (command: String, argument: String).self)
        Thread.detachNewThread {
            while let line = readLine() {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard let command = parts.first else { continue }
                input.yield((command, parts.count > 1 ? parts[1] : ""))
            }
            input.finish()
        }
        return stream
    }
}
