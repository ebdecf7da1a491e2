import Foundation
import WatchPairWire

/// `serve --reply-from CMD`: the app's handler as a shell command.
enum ReplyCommand {
    /// Runs `/bin/sh -c command` with `input` on its standard input; its standard output parsed as
    /// JSON, or nil when it cannot start, exits with a failure, or prints no JSON. Its standard error
    /// is wcctl's. Output is bounded by one control line (the answer has to fit in one).
    static func run(_ command: String, input: String) -> JSONValue? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        do {
            try process.run()
        } catch {
            return nil
        }
        // Written before reading: a command that reads all its input first cannot deadlock against us.
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        let output = (try? stdout.fileHandleForReading.readToEnd()) ?? Data()
        process.waitUntilExit()
        guard process.terminationStatus == 0, output.count <= ControlClient.maxRequestLineBytes else { return nil }
        return try? JSONValue.parse(utf8: output)
    }
}
