import Foundation

/// The receiver's held requests (``HeldRequests``) on disk: the channel that brought them has
/// acknowledged them, so after a kill -9 this file is the only copy.
///
/// `<directory>/watchconnection-held.json`: `{"version":1,"requests":[{"id":UUID,"type":String,
/// "envelope":String,"answersByUserInfo":Bool,"arrivedAt":seconds since 1970}]}`, oldest first. Written
/// through `DurableFile` before a held request's arrival is acknowledged to the session; an unreadable
/// file is set aside and reported like the queue file, and nothing is held.
struct HeldRequestsFile: Sendable {
    /// The file's name in its directory.
    static let fileName = "watchconnection-held.json"

    private let file: DurableFile<Stored>

    private struct Stored: Codable {
        var version: Int
        var requests: [Entry]
    }

    private struct Entry: Codable {
        var id: UUID
        var type: String
        var envelope: String
        var answersByUserInfo: Bool
        var arrivedAt: Double
    }

    /// The file in `directory`.
    init(directory: URL) {
        file = DurableFile(url: directory.appendingPathComponent(Self.fileName))
    }

    /// The held requests, or where an unreadable file was set aside and why.
    func load(setAsideSuffix: String) -> (requests: [HeldRequests.Request], setAside: (path: String, reason: String)?) {
        switch file.read(setAsideSuffix: setAsideSuffix) {
        case .setAside(let path, let reason):
            return ([], (path, reason))
        case .content(let stored):
            let requests = (stored?.requests ?? []).map {
                HeldRequests.Request(
                    id: $0.id, requestType: $0.type, envelope: $0.envelope, answersByUserInfo: $0.answersByUserInfo,
                    arrivedAt: Duration(seconds: $0.arrivedAt))
            }
            return (requests, nil)
        }
    }

    /// Replaces the file with `requests`.
    func save(_ requests: [HeldRequests.Request]) throws(WatchConnectionError) {
        try file.write(Stored(
            version: 1,
            requests: requests.map {
                Entry(id: $0.id, type: $0.requestType, envelope: $0.envelope, answersByUserInfo: $0.answersByUserInfo, arrivedAt: $0.arrivedAt.seconds)
            }))
    }
}
