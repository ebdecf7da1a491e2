import Glibc
import NIOCore
import NIOPosix

/// The relay floor's relays on NIO (``RelayLoop/nio`` and ``RelayLoop/nioEvents``): the same zero-work
/// relaying as the `epoll` loop, but through what the daemons are built on: one NIO event loop, each
/// socket a channel, each read a `ByteBuffer` through a channel handler, written on with
/// `writeAndFlush`. What this costs above the `epoll` relays is NIO's own share of a round trip.
///
/// With a `history` file each relay also does the system calls the daemons' diagnostic events cost them
/// per message: after a round trip's last byte went out (relay A: back to the client; relay B: the
/// echo) it writes one event line to a history file and one to stderr, as each daemon writes its
/// message event to its event history and to its log. The lines are constant bytes of a daemon's line
/// lengths: no formatting, so only the writes count.
enum NIORelay {
    /// A daemon's message event in its history (`events.jsonl`: `messageSent` is 217 bytes,
    /// `messageReceived` 225) and on stderr (122), as a quick `wcbench --keep` run writes them.
    static let historyLineLength = 220
    static let stderrLineLength = 122

    /// Relays descriptor `up` to `down` and back (relay A), or with `down` nil echoes `up` (relay B),
    /// until the socket toward the client closes; with `history` (an open file, append) it writes the event lines.
    static func run(up: Int32, down: Int32?, history: Int32?) throws(BenchError) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let route = Route(echoes: down == nil, history: history)
        do {
            // Down first: the client writes as soon as it may, so up must not be read before down exists.
            if let down {
                _ = try adopt(down, side: .down, route: route, group: group)
            }
            let upChannel = try adopt(up, side: .up, route: route, group: group)
            // The client closing its socket ends relay A, whose closing ends relay B.
            try upChannel.closeFuture.wait()
        } catch {
            throw BenchError("NIO relay: \(error)")
        }
    }

    private static func adopt(
        _ descriptor: Int32, side: Route.Side, route: Route, group: MultiThreadedEventLoopGroup
    ) throws -> any Channel {
        let channel = try ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Before the channel is active, so no read finds its route without it.
                    route.attach(channel, side: side)
                    try channel.pipeline.syncOperations.addHandler(Forward(side: side, route: route))
                }
            }
            .withConnectedSocket(descriptor).wait()
        return channel
    }

    /// Both channels of a relay and where a read goes: touched only on the relay's one event loop.
    private final class Route: @unchecked Sendable {
        enum Side { case up, down }

        /// Relay B: what up reads goes back to up.
        let echoes: Bool
        /// Where the event lines go (stderr besides); nil: none.
        let history: Int32?
        private var up: (any Channel)?
        private var down: (any Channel)?
        private let historyLine = Route.line(NIORelay.historyLineLength)
        private let stderrLine = Route.line(NIORelay.stderrLineLength)

        private static func line(_ length: Int) -> [UInt8] {
            [UInt8](repeating: UInt8(ascii: "e"), count: length - 1) + [UInt8(ascii: "\n")]
        }

        init(echoes: Bool, history: Int32?) {
            self.echoes = echoes
            self.history = history
        }

        func attach(_ channel: any Channel, side: Side) {
            switch side {
            case .up: up = channel
            case .down: down = channel
            }
        }

        /// Writes what `side` read to where it goes: up → down, down → up; with no down (relay B) up is
        /// echoed. The write that ends a round trip is followed by the event lines.
        func forward(_ buffer: ByteBuffer, from side: Side) {
            let target: (any Channel)?
            let endsRoundTrip: Bool
            switch side {
            case .up: (target, endsRoundTrip) = echoes ? (up, true) : (down, false)
            case .down: (target, endsRoundTrip) = (up, true)
            }
            target?.writeAndFlush(buffer, promise: nil)
            if endsRoundTrip, let history { writeEventLines(history) }
        }

        func closed() {
            // Either socket closing takes the relay down (as the epoll relay stops at end of stream).
            up?.close(promise: nil)
            down?.close(promise: nil)
        }

        private func writeEventLines(_ history: Int32) {
            historyLine.withUnsafeBytes { _ = write(history, $0.baseAddress, $0.count) }
            stderrLine.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }

    private final class Forward: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        private let side: Route.Side
        private let route: Route

        init(side: Route.Side, route: Route) {
            self.side = side
            self.route = route
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            route.forward(unwrapInboundIn(data), from: side)
        }

        func channelInactive(context: ChannelHandlerContext) {
            route.closed()
            context.fireChannelInactive()
        }
    }
}
