import Glibc
import Testing
import WatchPairWire

@testable import WatchPairCLI

/// The requests `wait`, `@FILE`/`-` arguments and `receive --error/--delay` make, against a fake daemon.
@Suite("wait, payload files, app faults")
struct WaitAndPayloadArgumentTests {
    @Test("wait sends the condition and the remaining timeout; met:false is exit 4")
    func waitRequests() throws {
        try withServer({ request in [Reply.ok(request, json(#"{"met":true}"#))] }) { server in
            let result = runWcctl(["wait", "reachable"], server: server)
            #expect(result.status == 0 && result.out.isEmpty, "\(result.err)")
            #expect(server.requests.map(shape) == [#"{"condition":"reachable","op":"wait"}"#])
        }
        try withServer({ request in [Reply.ok(request, json(#"{"met":false}"#))] }) { server in
            // Long enough that wcctl's own start on a loaded machine takes a small part of it.
            let result = runWcctl(["wait", "drained", "--timeout", "600"], server: server)
            #expect(result.status == 4)
            #expect(result.err == "wcctl: drained: not reached within 600 s\n")
            guard case .double(let timeout)? = server.requests.first?["timeout"] else {
                Issue.record("no timeout in \(server.requests)")
                return
            }
            #expect(timeout > 540 && timeout <= 600, "the daemon gets what is left of --timeout: \(timeout)")
        }
    }

    /// That it waits the whole timeout first is timed on the real wcctl, in ProcessTests' `WaitTests`.
    @Test("wait for a socket that never appears gives up at the timeout with exit 4")
    func waitForAbsentSocket() {
        let dir = makeTempDirectory()
        defer { rmdir(dir) }
        let result = runWcctl(["wait", "ready", "--timeout", "0.3"], environment: ["WCCTL_CONTROL": dir + "/missing/ctl"])
        #expect(result.status == 4, "\(result.err)")
        #expect(result.err == "wcctl: ready: not reached within 0.3 s\n")
    }

    @Test("@FILE and - stand for the JSON of every payload argument")
    func payloadFromFileAndStandardInput() throws {
        let dir = makeTempDirectory()
        let file = dir + "/payload.json"
        defer { unlink(file); rmdir(dir) }
        let text = #"{"theme":"dark"}"#
        #expect(FileManagerless.write(text, to: file))
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        _ = text.withCString { write(ends[1], $0, strlen($0)) }
        close(ends[1])
        let cases: [([String], String)] = [
            (["context", "set", "@" + file], #"{"context":{"theme":"dark"},"op":"contextSet"}"#),
            (["transfer", "@" + file], #"{"op":"transfer","userInfo":{"theme":"dark"}}"#),
            (["send", "--no-reply", "-"], #"{"message":{"theme":"dark"},"noReply":true,"op":"send"}"#),
        ]
        for (arguments, request) in cases {
            try withServer({ request in [Reply.ok(request, json(#"{"version":1,"changed":true}"#))] }) { server in
                let result = runWcctl(arguments, server: server, standardInput: ends[0])
                #expect(result.status == 0, "\(arguments): \(result.err)")
                #expect(server.requests.map(shape) == [request], "\(arguments)")
            }
        }
        let bare = runWcctl(["transfer", "@"], environment: ["WCCTL_CONTROL": "/nonexistent/ctl"])
        #expect(bare.status == 2 && bare.err.contains("'@' must be followed by a file name"), "\(bare.err)")
        let missing = runWcctl(["transfer", "@" + dir + "/absent.json"], environment: ["WCCTL_CONTROL": "/nonexistent/ctl"])
        #expect(missing.status == 1 && missing.err.contains("absent.json: No such file or directory"), "\(missing.err)")
    }

    @Test("receive --error and --delay become autoError and autoDelay, handling all four variants")
    func appFaultRequests() {
        let failing = MessageHandling(follow: true, channels: [], reply: nil, error: .messageReplyFailed, delay: 2.5)
        #expect(failing.handle == ["dictionary", "dictionaryWithReply", "data", "dataWithReply"])
        #expect(failing.autoError == 7011 && failing.autoReply == nil && failing.autoDelay == 2.5)
        let slow = MessageHandling(follow: true, channels: [], reply: (json(#"{"ok":1}"#), false), delay: 3)
        #expect(slow.handle == ["dictionary", "dictionaryWithReply", "data"] && slow.autoDelay == 3 && slow.autoError == nil)
        let notFollowing = MessageHandling(follow: false, channels: [], reply: nil, error: .genericError, delay: 1)
        #expect(notFollowing.handle == nil && notFollowing.autoError == nil && notFollowing.autoDelay == nil)
    }

    @Test("the directory watched for a socket: its parent, or the nearest ancestor that exists", arguments: [
        ("/a/b/c.ctl", "/a/b"), ("c.ctl", "."), ("/c.ctl", "/"), ("/a/b/", "/a"),
    ])
    func parentDirectory(path: String, parent: String) {
        #expect(PathAppearance.parent(of: path) == parent)
    }

    @Test func nearestExistingAncestor() {
        #expect(PathAppearance.nearestExistingDirectory(of: "/tmp/wcctl-nope/deeper/x.ctl") == "/tmp")
    }
}

/// Writes a small file with POSIX calls (the test target does not import Foundation here).
enum FileManagerless {
    static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return text.withCString { Glibc.write(fd, $0, strlen($0)) } == text.utf8.count
    }
}
