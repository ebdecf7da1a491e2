import Glibc

/// A blocking MQTT 3.1.1 client over a Unix socket, enough to drive a broker at QoS 1 from one thread.
///
/// Every read waits at most until a deadline (a broker that stops answering fails the section, it does
/// not hang the run). Reads are buffered: one `read` often holds many packets when 64 are in flight.
final class MQTTClient {
    /// The connected socket.
    let descriptor: Int32
    private let name: String
    private var buffer: [UInt8] = []
    private var position = 0
    private var nextID: UInt16 = 0

    /// Connects to the broker's socket at `path` and completes CONNECT/CONNACK.
    init(path: String, clientID: String, cleanSession: Bool = true, deadline: UInt64) throws(BenchError) {
        descriptor = try UnixSockets.connect(path)
        name = clientID
        try write(MQTTPacket.connect(clientID: clientID, cleanSession: cleanSession))
        guard case .connack(let code) = try next(deadline: deadline), code == 0 else {
            close(descriptor)
            throw BenchError("the broker refused \(clientID)'s CONNECT")
        }
    }

    deinit {
        _ = try? write(MQTTPacket.disconnect)
        close(descriptor)
    }

    /// A packet id for the next QoS 1 PUBLISH or SUBSCRIBE (never 0, §2.3.1).
    func makeID() -> UInt16 {
        nextID = nextID == UInt16.max ? 1 : nextID + 1
        return nextID
    }

    /// Subscribes to `topic` at QoS 1 and waits for the SUBACK.
    func subscribe(_ topic: String, deadline: UInt64) throws(BenchError) {
        let id = makeID()
        try write(MQTTPacket.subscribe(packetID: id, topic: topic, qos: 1))
        while true {
            if case .suback(id) = try next(deadline: deadline) { return }
        }
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws(BenchError) {
        let ok = bytes.withUnsafeBytes { UnixSockets.writeExactly(descriptor, $0.baseAddress!, $0.count) }
        guard ok else { throw BenchError.system("\(name): write to the broker", errno: errno) }
    }

    /// Whether a whole packet is already buffered (so `next` returns without reading).
    var hasBufferedPacket: Bool { ((try? peekLength()) ?? nil) != nil }

    /// The next packet, reading as needed until `deadline`.
    func next(deadline: UInt64) throws(BenchError) -> MQTTPacket {
        while true {
            if let (headerLength, bodyLength) = try peekLength() {
                let start = position + headerLength
                let body = Array(buffer[start..<start + bodyLength])
                let first = buffer[position]
                position = start + bodyLength
                do {
                    return try MQTTPacket.decode(first: first, body: body)
                } catch {
                    throw BenchError("\(name): \(error)")
                }
            }
            try fill(deadline: deadline)
        }
    }

    /// The fixed header's length and the body's, when a whole packet is buffered.
    private func peekLength() throws(BenchError) -> (Int, Int)? {
        var length = 0
        var multiplier = 1
        var index = position + 1
        while true {
            guard index < buffer.count else { return nil }
            let byte = buffer[index]
            length += Int(byte & 0x7F) * multiplier
            index += 1
            if byte & 0x80 == 0 { break }
            multiplier *= 128
            guard multiplier <= 128 * 128 * 128 else { throw BenchError("\(name): remaining length over 4 bytes") }
        }
        let headerLength = index - position
        return buffer.count - position >= headerLength + length ? (headerLength, length) : nil
    }

    /// Reads what the socket has, waiting at most until `deadline`.
    private func fill(deadline: UInt64) throws(BenchError) {
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let rc = poll(&poller, 1, Monotonic.pollTimeout(until: deadline))
            if rc < 0 && errno == EINTR { continue }
            if rc < 0 { throw BenchError.system("\(name): poll", errno: errno) }
            if rc == 0 {
                if Monotonic.now() >= deadline { throw BenchError("\(name): the broker sent nothing before the deadline") }
                continue
            }
            break
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
        if n < 0 && errno == EINTR { return }
        guard n > 0 else { throw BenchError.system("\(name): the broker closed the connection", errno: n == 0 ? ECONNRESET : errno) }
        buffer += chunk[0..<n]
    }
}

extension MQTTClient {
    /// The index of a client in `clients` with a packet to read (buffered, or its socket readable),
    /// waiting at most until `deadline`.
    static func ready(_ clients: [MQTTClient], deadline: UInt64) throws(BenchError) -> Int {
        if let buffered = clients.firstIndex(where: \.hasBufferedPacket) { return buffered }
        var fds = clients.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        while true {
            let rc = poll(&fds, nfds_t(fds.count), Monotonic.pollTimeout(until: deadline))
            if rc < 0 && errno == EINTR { continue }
            if rc < 0 { throw BenchError.system("poll on the broker's clients", errno: errno) }
            if let index = fds.indices.first(where: { fds[$0].revents != 0 }) { return index }
            if Monotonic.now() >= deadline { throw BenchError("the broker sent nothing before the deadline") }
        }
    }
}
