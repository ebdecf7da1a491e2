import Foundation
import Testing

/// `wcbench --profile` attaching perf to the daemons: an attach that fails (perf now and then exits 255
/// when a thread of the daemon ends while it opens its counters) is tried again, outside the measured window.
///
/// perf here is a stand-in script first in PATH: it speaks perf's control protocol (a command on one
/// FIFO, `ack` on the other), writes its `-o` file on SIGINT, and its first start exits 255 without a
/// word, as the real one did now and then between two windows of `message`.
@Suite("wcbench --profile: perf attached again when an attach fails")
struct WcbenchProfileTests {
    static let fakePerf = """
        #!/bin/bash
        calls="$(dirname "$0")/perf-calls"
        echo "$*" >> "$calls"
        [ "$(wc -l < "$calls")" -eq 1 ] && exit 255
        while [ $# -gt 0 ]; do
            case $1 in
                --control) spec=${2#fifo:}; ctl=${spec%,*}; ack=${spec#*,}; shift ;;
                -o) out=$2; shift ;;
            esac
            shift
        done
        trap ': > "$out"; exit 0' INT
        exec 3<> "$ctl" 4<> "$ack"
        while read -r word <&3; do echo ack >&4; done

        """

    /// Writes an executable script through a close-on-exec descriptor: a process that another test starts
    /// meanwhile must not keep it open for writing, or starting the script fails with ETXTBSY (seen in the
    /// process tests' parallel run with Foundation's `write(toFile:)`).
    static func install(_ script: String, at path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let bytes = Array(script.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    @Test("a perf that exits before it answers is started again, and every window is recorded")
    func attachRetried() async throws {
        try await PairSandbox.with { pair in
            let tools = pair.dir + "/tools"
            let profiles = pair.dir + "/profiles"
            try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
            try Self.install(Self.fakePerf, at: tools + "/perf")
            let path = tools + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let child = try pair.spawn(
                name: "wcbench --profile", executable: pair.bin + "/wcbench",
                arguments: ["--quick", "--only", "message", "--profile", profiles, "--tmp", pair.dir],
                environment: ["PATH": path])
            #expect(await child.waitForExit(timeout: .seconds(240)) == 0, "\(child.stderrText)")

            let calls = try String(contentsOfFile: tools + "/perf-calls", encoding: .utf8).split(separator: "\n")
            // Three windows (64 B, 1 KiB, 64 in flight), each daemon: six attaches, one of them twice.
            #expect(calls.count == 7, "\(calls)")
            #expect(calls.allSatisfy { $0.hasPrefix("record ") }, "\(calls)")
            #expect(calls.first == calls.dropFirst().first, "the failed attach is started again as it was: \(calls)")
            let windows = ["message-rtt-64B", "message-rtt-1024B", "message-inflight64"]
            for window in windows {
                for daemon in ["phoned", "watchd"] {
                    #expect(FileManager.default.fileExists(atPath: "\(profiles)/\(window)-\(daemon).data"), "\(window)-\(daemon)")
                }
            }
        }
    }
}
