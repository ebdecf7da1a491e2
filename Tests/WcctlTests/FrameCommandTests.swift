import Testing
import WatchPairCLI
import WatchPairWire

/// `wcctl frame`: the bytes decode to the frame asked for, and the fault options do what they say.
@Suite("wcctl frame")
struct FrameCommandTests {
    func decode(_ bytes: [UInt8]) throws -> [Frame] {
        var decoder = FrameDecoder()
        decoder.append(bytes)
        var frames: [Frame] = []
        while let frame = try decoder.next() { frames.append(frame) }
        try decoder.finish()
        return frames
    }

    @Test("a hello of another pair, from the watch")
    func hello() throws {
        let run = runWcctl(["--side", "watch", "frame", "hello", "--pair", "intruder", "--launch", "background"])
        #expect(run.status == 0)
        guard case .hello(let hello) = try decode(run.outBytes).first else {
            Issue.record("not a hello")
            return
        }
        #expect(hello.role == .watch)
        #expect(hello.pairId == "intruder")
        #expect(hello.launch == .background)
    }

    @Test("a hello's pair id is the pair wcctl addresses: --pair, $WCCTL_PAIR, else default", arguments: [
        ([String](), [String: String](), "default"), (["--pair", "ci-3"], [:], "ci-3"), ([], ["WCCTL_PAIR": "ci-4"], "ci-4"),
    ])
    func helloOfThePair(global: [String], environment: [String: String], pairId: String) throws {
        let run = runWcctl(global + ["frame", "hello"], environment: environment)
        #expect(run.status == 0)
        guard case .hello(let hello) = try decode(run.outBytes).first else {
            Issue.record("not a hello")
            return
        }
        #expect(hello.pairId == pairId)
    }

    @Test("a userInfo frame carries the payload, seq and after")
    func userInfo() throws {
        let run = runWcctl(["frame", "userInfo", #"{"n":1.5}"#, "--seq", "7", "--after", "6"])
        #expect(run.status == 0)
        guard case .userInfo(let seq, let after, _, let payload) = try decode(run.outBytes).first else {
            Issue.record("not a userInfo frame")
            return
        }
        #expect(seq == 7 && after == 6)
        #expect(payload.dictionary == ["n": .double(1.5)])
    }

    @Test("--truncate leaves a partial frame; --corrupt breaks the checksum")
    func faults() throws {
        let truncated = runWcctl(["frame", "ping", "--truncate", "9"])
        #expect(truncated.outBytes.count == 9)
        #expect(throws: FrameError.truncated(bufferedBytes: 9)) { _ = try decode(truncated.outBytes) }
        let corrupted = runWcctl(["frame", "ping", "--corrupt", "6"])
        #expect(throws: FrameError.self) { _ = try decode(corrupted.outBytes) }
    }

    @Test("bad input is 7008 (exit 108)")
    func badInput() {
        #expect(runWcctl(["frame", "message", "[1]"]).status == 108)
        #expect(runWcctl(["frame", "ping", "--corrupt", "99"]).status == 108)
    }
}
