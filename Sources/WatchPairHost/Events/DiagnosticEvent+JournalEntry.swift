import Systemd
import WatchPairCore
import WatchPairWire

extension DiagnosticEvent {
    /// Appends ``journalFields(identifier:pair:)``'s entry to `datagram`, in the same order, numbers and ids
    /// written as digits in place: under systemd every event is one of these on the socket loop.
    /// `EventLineBytesTests` holds the bytes equal to the fields' datagram.
    func appendJournalEntry(to datagram: inout JournalDatagram, identifier: String, pair: String) {
        datagram.add("MESSAGE", value: message)
        datagram.add("MESSAGE_ID", value: kind.messageID)
        datagram.add("PRIORITY", plainValue: { TextBytes.append(decimal: Int64(severity.rawValue), to: &$0) })
        datagram.add("SYSLOG_IDENTIFIER", value: identifier)
        datagram.add("WC_EVENT", value: kind.name)
        datagram.add("WC_ROLE", value: role.rawValue)
        datagram.add("WC_PAIR", value: pair)
        forEachOptionalField(
            text: { datagram.add($0.journal, namePrefix: "WC_", value: $1) },
            plain: { name, value in datagram.add(name.journal, namePrefix: "WC_", plainValue: value.append(to:)) })
    }
}
