import WatchPairCore
import WatchPairHost
import WatchPairWire

/// The channels' control operations (docs/ControlProtocol.md), each registered beside its request type:
/// status, the message, userInfo and context channels, files, acting as the app (`receive`, `ack`,
/// `answer`), installation and lifecycle, the quirks, events and `wait`.
struct ChannelOperations {
    /// The host served.
    let context: HostContext
    /// Routes live messages to the `receive --follow` clients acting as the app's handler.
    let router: MessageRouter
    /// What `wait`'s `handler` condition reads of the reliability layer.
    let connection: AppConnection

    func register(on controlRouter: inout ControlRouter) {
        StatusOperation.register(on: &controlRouter, context: context)
        SendOperations(channels: context.channels).register(on: &controlRouter)
        TransferOperations(channels: context.channels).register(on: &controlRouter)
        FileOperations(context: context).register(on: &controlRouter)
        ContextOperations(channels: context.channels).register(on: &controlRouter)
        ReceiveOperations(context: context, router: router).register(on: &controlRouter)
        EventsOperation.register(on: &controlRouter, events: context.events)
        let (channels, router, connection) = (context.channels, router, connection)
        WaitOperation.register(on: &controlRouter, clock: context.clock) { requestType in
            WaitState(channels: channels, router: router, connection: connection, requestType: requestType)
        }
        InstallationOperations(channels: context.channels).register(on: &controlRouter)
        QuirkOperations(channels: context.channels).register(on: &controlRouter)
    }
}
