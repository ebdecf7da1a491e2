import Testing

@testable import Systemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `Journal.trySend`: journald's native datagram, sent without waiting, and `.wouldWait` when the socket is full.
@Suite("Journal entries sent without waiting")
struct JournalNoWaitTests {
    @Test func theDatagramIsJournaldsNativeForm() {
        let datagram = Journal.nativeDatagram(["MESSAGE=hi", "WC_NOTE=a\nb", "BROKEN"])
        var expected = Array("MESSAGE=hi\nWC_NOTE\n".utf8)
        withUnsafeBytes(of: UInt64(3).littleEndian) { expected += $0 }
        expected += Array("a\nb\n".utf8)
        #expect(datagram == expected)
    }

    @Test func aDatagramWrittenFieldByFieldIsTheSameForm() {
        var datagram = JournalDatagram()
        datagram.add("MESSAGE", value: "hi")
        datagram.add("NOTE", namePrefix: "WC_", value: "a\nb")
        datagram.add("SEQ", namePrefix: "WC_", plainValue: { $0 += Array("42".utf8) })
        datagram.add("EMPTY", value: "")
        var expected = Journal.nativeDatagram(["MESSAGE=hi", "WC_NOTE=a\nb", "WC_SEQ=42", "EMPTY="])
        #expect(datagram.bytes == expected)
        expected = Array("MESSAGE=hi\nWC_NOTE\n".utf8)
        withUnsafeBytes(of: UInt64(3).littleEndian) { expected += $0 }
        expected += Array("a\nb\nWC_SEQ=42\nEMPTY=\n".utf8)
        #expect(datagram.bytes == expected)
    }

    /// A datagram socket bound in a temporary directory, standing in for journald's.
    static func receiver(in directory: TemporaryDirectory) throws -> (descriptor: Int32, path: String) {
        let path = directory.path + "/journal"
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #expect(descriptor >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        return (descriptor, path)
    }

    @Test func anEntryArrivesAsOneDatagram() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (descriptor, path) = try Self.receiver(in: directory)
        defer { close(descriptor) }
        #expect(Journal.trySend([("MESSAGE", "hi"), ("PRIORITY", "6")], to: path) == .sent)
        var buffer = [UInt8](repeating: 0, count: 256)
        let received = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(Array(buffer.prefix(max(received, 0))) == Array("MESSAGE=hi\nPRIORITY=6\n".utf8))
    }

    @Test func aPreparedDatagramArrivesAsItIs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (descriptor, path) = try Self.receiver(in: directory)
        defer { close(descriptor) }
        var datagram = JournalDatagram()
        datagram.add("MESSAGE", value: "hi")
        datagram.add("PRIORITY", plainValue: { $0.append(UInt8(ascii: "6")) })
        #expect(Journal.trySend(datagram, to: path) == .sent)
        var buffer = [UInt8](repeating: 0, count: 256)
        let received = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(Array(buffer.prefix(max(received, 0))) == Array("MESSAGE=hi\nPRIORITY=6\n".utf8))
        #expect(Journal.trySend(JournalDatagram(), to: path) == .failed)
        // Emptied and reused (one buffer per batch of events), it carries only the next entry.
        datagram.removeAll()
        #expect(datagram.bytes.isEmpty)
        datagram.add("MESSAGE", value: "again")
        #expect(Journal.trySend(datagram, to: path) == .sent)
        let again = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(Array(buffer.prefix(max(again, 0))) == Array("MESSAGE=again\n".utf8))
    }

    @Test func aPathTooLongForTheSocketAddressFails() {
        var datagram = JournalDatagram()
        datagram.add("MESSAGE", value: "hi")
        #expect(Journal.trySend(datagram, to: "/tmp/" + String(repeating: "j", count: 200)) == .failed)
    }

    @Test func aSocketNobodyReadsFillsAndTheSendWouldWaitInsteadOfWaiting() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (descriptor, path) = try Self.receiver(in: directory)
        defer { close(descriptor) }
        var sent = 0
        var last = Journal.Attempt.sent
        while sent < 1_000_000, last == .sent {
            last = Journal.trySend([("MESSAGE", String(repeating: "x", count: 512))], to: path)
            sent += 1
        }
        #expect(last == .wouldWait)
        #expect(sent > 1)
    }

    @Test func noSocketFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(Journal.trySend([("MESSAGE", "hi")], to: directory.path + "/none") == .failed)
    }
}
