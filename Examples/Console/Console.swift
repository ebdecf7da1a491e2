import Foundation

/// The example's "user interface": one line per event on stdout, commands from stdin.
public enum Console {
    private static let lock = NSLock()

    /// Prints `event {json}` and flushes, so a test (or a person) can follow along.
    public static func report(_ event: String, _ payload: [String: Any] = [:]) {
        let data = (try? JSONSerialization.data(withJSONObject: printable(payload), options: [.sortedKeys])) ?? Data("{}".utf8)
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardOutput.write(Data((event + " " + String(decoding: data, as: UTF8.self) + "\n").utf8))
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

    /// Runs `handle` on the main queue for each line typed on stdin (see ``commands()``).
    public static func readCommands(_ handle: @escaping @Sendable (String, String) -> Void) {
        let lines = commands()
        Task {
            for await line in lines {
                DispatchQueue.main.async { handle(line.command, line.argument) }
            }
        }
    }

    /// Dates and data as strings, so any property list prints as JSON.
    private static func printable(_ value: Any) -> Any {
        switch value {
        case let date as Date: ISO8601DateFormatter().string(from: date)
        case let data as Data: data.base64EncodedString()
        case let dictionary as [String: Any]: dictionary.mapValues(printable)
        case let array as [Any]: array.map(printable)
        default: value
        }
    }
}
