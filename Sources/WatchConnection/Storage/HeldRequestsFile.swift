import Foundation

/// The receiver's held requests (``HeldRequests``) on disk: the channel that brought them has
/// acknowledged them, so after a kill -9 this file is the only copy.
///
/// `<directory>/watchconnection-held.json`, a ``DurableList`` like the queue file: its first line is
/// `{"requests":[{"answersByUserInfo":Bool,"arrivedAt":seconds since 1970,"envelope":String,"id":UUID,
/// "type":String}],"version":1}`, oldest first, and each later line a change since. Saved before a held
/// request's arrival is acknowledged to the session; an unreadable file is set aside and reported like
/// the queue file, and nothing is held.
struct HeldRequestsFile: Sendable {
    /// The file's name in its directory.
    static let fileName = "watchconnection-held.json"

    private let list: DurableList<Entry>

    private struct Entry: Codable, Identifiable, Sendable {
        var id: UUID
        var type: String
        var envelope: String
        var answersByUserInfo: Bool
        var arrivedAt: Double
    }

    /// The file in `directory`.
    init(directory: URL) {
        list = DurableList(url: directory.appendingPathComponent(Self.fileName), kind: "held requests file")
    }

    /// The held requests, or where an unreadable file was set aside and why.
    func load(setAsideSuffix: String) -> (requests: [HeldRequests.Request], setAside: (path: String, reason: String)?) {
        switch list.load(setAsideSuffix: setAsideSuffix) {
        case .setAside(let path, let reason):
            return ([], (path, reason))
        case .entries(let entries):
            let requests = entries.map {
                HeldRequests.Request(
                    id: $0.id, requestType: $0.type, envelope: $0.envelope, answersByUserInfo: $0.answersByUserInfo,
                    arrivedAt: Duration(seconds: $0.arrivedAt))
            }
            return (requests, nil)
        }
    }

    /// Makes `requests` the held requests on disk, durably.
    func save(_ requests: [HeldRequests.Request]) throws(WatchConnectionError) {
        try list.save(requests.map {
            Entry(id: $0.id, type: $0.requestType, envelope: $0.envelope, answersByUserInfo: $0.answersByUserInfo, arrivedAt: $0.arrivedAt.seconds)
        })
    }
}
