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

    /// Reads commands from stdin on a background thread and runs `handle` on the main queue for each line.
    /// At end of input the app keeps running (as a service under systemd, stdin is /dev/null).
    public static func readCommands(_ handle: @escaping @Sendable (String, String) -> Void) {
        Thread.detachNewThread {
            while let line = readLine() {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard let command = parts.first else { continue }
                let argument = parts.count > 1 ? parts[1] : ""
                DispatchQueue.main.async { handle(command, argument) }
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
