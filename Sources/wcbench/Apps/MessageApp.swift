import WatchPairWire

/// The receiving app on watchd: a `receive` stream of `message` events. With `answers`, it answers each
/// message itself with `answer` requests on that second connection (so answers never wait behind the
/// stream's request slot); without, the stream was opened with `autoReply` and the app only reads the
/// events (watchd writes each event before it sends the automatic reply, so they must be read).
struct MessageApp {
    let stream: BenchConnection
    let answers: BenchConnection?
    let pad: String

    var connections: [BenchConnection] { [stream] + (answers.map { [$0] } ?? []) }

    func process() throws(BenchError) {
        try stream.fill()
        while let line = try stream.nextLine() {
            guard line.event == "message", let answers else { continue }
            guard let token = line.data?["token"]?.integerValue, token >= 0 else {
                throw BenchError("a message event without a token: \(line.line)")
            }
            try answers.send(answers.request("answer") {
                $0.set("token", UInt64(token))
                $0.set("reply", JSONValue.object(["p": .string(pad)]))
            })
        }
        if let answers {
            try answers.fill()
            while let line = try answers.nextLine() {
                guard line.ok == true else { throw BenchError("answer failed: \(line.errorDescription)") }
            }
            if answers.closed { throw BenchError("watchd closed the answering app's connection") }
        }
        if stream.closed { throw BenchError("watchd closed the app's connection") }
    }
}
