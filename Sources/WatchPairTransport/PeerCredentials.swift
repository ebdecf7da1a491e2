import Glibc
import NIOCore
import WatchPairCore

/// Who is at the other end of a Unix socket, as the kernel reports it (`SO_PEERCRED`).
///
/// For an accepted connection these are the connecting process's credentials at `connect()`; for a
/// connection this side made they are those of the process that called `listen()` on the peer's
/// socket (systemd, uid 0, when the socket is socket-activated).
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process id.
    public var pid: Int32
    /// The peer's effective user id.
    public var uid: UInt32
    /// The peer's effective group id.
    public var gid: UInt32
    /// The peer's supplementary groups (`SO_PEERGROUPS`, Linux 4.13); empty when they could not be read
    /// (more than ``PeerCredentialsHandler/maximumGroups``, or an older kernel).
    public var groups: [UInt32]

    /// Creates credentials from their parts.
    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// `pid=<pid> uid=<uid> gid=<gid>`.
    public var description: String { "pid=\(pid) uid=\(uid) gid=\(gid)" }
}

/// Reads `SO_PEERCRED` as soon as a channel becomes active, before any byte is read.
///
/// Reading later could find the descriptor already closed: NIO closes a channel when it reads EOF, so
/// a peer that writes and hangs up at once would lose its data. `channelActive` comes first, and the
/// socket is open then, for accepted channels (at registration) and connected ones (once connected).
///
/// NIO exposes no descriptor, but every socket channel is a `SocketOptionProvider` whose unsafe getter
/// is generic over the value type. Glibc hides `struct ucred` behind `_GNU_SOURCE`, so it is read as a
/// tuple with the same layout: `{ pid_t pid; uid_t uid; gid_t gid; }`, three 4-byte fields.
final class PeerCredentialsHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let promise: EventLoopPromise<PeerCredentials>
    private var completed = false

    /// A handler completing `promise` with the peer's credentials, or failing it if the channel
    /// closes (or the handler is removed) first.
    init(promise: EventLoopPromise<PeerCredentials>) {
        self.promise = promise
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Added to an already active channel, there will be no channelActive: read now.
        if context.channel.isActive { self.readCredentials(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        self.readCredentials(context: context)
        context.fireChannelActive()
    }

    private func readCredentials(context: ChannelHandlerContext) {
        if let provider = context.channel as? any SocketOptionProvider {
            // On the event loop the getter runs inline: the future is already complete here.
            provider.unsafeGetSocketOption(
                level: NIOBSDSocket.OptionLevel(rawValue: SOL_SOCKET),
                name: NIOBSDSocket.Option(rawValue: SO_PEERCRED)
            ).assumeIsolated().whenComplete { (result: Result<(Int32, UInt32, UInt32), any Error>) in
                switch result {
                case .success(let cred):
                    let groups = Self.supplementaryGroups(provider)
                    self.complete(.success(PeerCredentials(pid: cred.0, uid: cred.1, gid: cred.2, groups: groups)))
                case .failure(let error):
                    self.complete(.failure(TransportError(.credentialsRejected, "getsockopt(SO_PEERCRED) failed: \(error)")))
                }
            }
        } else {
            self.complete(
                .failure(TransportError(.credentialsRejected, "cannot read SO_PEERCRED: \(type(of: context.channel)) is not a socket"))
            )
        }
    }

    /// Most supplementary groups read; a peer in more reads as having none (checks then fail closed).
    static let maximumGroups = 64

    /// `SO_PEERGROUPS`: read into fixed storage (the getter takes a fixed-size value) that starts zeroed,
    /// so the zero entries after the real ones are dropped; gid 0 is never a supplementary group that
    /// matters here (root is recognised by its uid).
    private static func supplementaryGroups(_ provider: any SocketOptionProvider) -> [UInt32] {
        var groups: [UInt32] = []
        provider.unsafeGetSocketOption(
            level: NIOBSDSocket.OptionLevel(rawValue: SOL_SOCKET),
            name: NIOBSDSocket.Option(rawValue: SO_PEERGROUPS)
        ).assumeIsolated().whenSuccess { (storage: InlineArray<64, UInt32>) in
            for index in storage.indices where storage[index] != 0 { groups.append(storage[index]) }
        }
        return groups
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.complete(.failure(TransportError(.connectionClosed, "closed before its peer credentials were read")))
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.complete(.failure(TransportError(.connectionClosed, "closed before its peer credentials were read")))
    }

    private func complete(_ result: Result<PeerCredentials, any Error>) {
        guard !self.completed else { return }
        self.completed = true
        self.promise.completeWith(result)
    }
}
