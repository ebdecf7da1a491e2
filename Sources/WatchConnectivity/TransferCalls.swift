import Foundation
import WatchPairCore
import WatchPairHost
import WatchPairWire

/// The session's background-transfer calls — userInfo, complication userInfo, the application context
/// (`+Files`: files) — behind `WCSession`'s public methods of the same names, which document them.
///
/// Apple's API is synchronous here: each call converts its payload, blocks on the host's executor until
/// the engine has made it durable (`EngineExecutor.blockingCall`), and returns the transfer object the
/// session keeps in ``SessionTransfers``. A transfer that cannot be accepted is returned not
/// transferring and reported to `session(_:didFinish:error:)` with its `WCError`.
struct TransferCalls {
    let session: WCSession

    var transfers: SessionTransfers { session.transfers }

    /// `updateApplicationContext(_:)`: returns once the context is durable.
    func updateApplicationContext(_ applicationContext: [String: Any]) throws {
        let runtime = try session.runtimeForSending()
        let payload = try PropertyListBridge.plist(from: applicationContext)
        let channels = runtime.channels
        let result = EngineExecutor.shared.blockingCall { () -> Result<Void, WCFailure> in
            do throws(WCFailure) {
                try await channels.updateApplicationContext(payload)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let failure) = result { throw WCError(failure) }
        session.state.withLock { $0.applicationContext = payload }
    }

    /// `transferUserInfo(_:)` and `transferCurrentComplicationUserInfo(_:)`: converts, queues through
    /// `enqueue`, and returns the registered transfer object, or a refused one reported to `didFinish`.
    func queueUserInfo(
        _ userInfo: [String: Any],
        _ enqueue: @escaping @Sendable (AppChannels, PlistDictionary) async throws(WCFailure) -> OutboxTransfer
    ) -> WCSessionUserInfoTransfer {
        let runtime: SessionRuntime
        let payload: PlistDictionary
        do {
            runtime = try session.runtimeForSending()
            payload = try PropertyListBridge.plist(from: userInfo)
        } catch {
            return refused(.refused(userInfo), error)
        }
        let channels = runtime.channels
        let transfers = self.transfers
        return register({ () async throws(WCFailure) -> WCSessionUserInfoTransfer in
            transfers.object(for: try await enqueue(channels, payload), channels: channels, isTransferring: true)
        }, refused: { refused(.plist(payload), $0) })
    }

    /// Runs `enqueue` on the host's executor, blocking, while the session's registrations wait: until the
    /// object is registered, a didFinish for it must wait (see `SessionDelivery`), or the delegate could be
    /// handed a different object than the one returned here. A failure returns `refused`'s object for its
    /// error.
    func register<Transfer: Sendable>(
        _ enqueue: @escaping @Sendable () async throws(WCFailure) -> Transfer, refused: (WCError) -> Transfer
    ) -> Transfer {
        let result = transfers.registering {
            EngineExecutor.shared.blockingCall { () -> Result<Transfer, WCFailure> in
                do throws(WCFailure) {
                    return .success(try await enqueue())
                } catch {
                    return .failure(error)
                }
            }
        }
        switch result {
        case .success(let transfer):
            return transfer
        case .failure(let failure):
            return refused(WCError(failure))
        }
    }

    /// `remainingComplicationUserInfoTransfers`: 0 before activation.
    var remainingComplicationUserInfoTransfers: Int {
        guard let runtime = session.activeRuntime else { return 0 }
        let channels = runtime.channels
        return EngineExecutor.shared.blockingCall { await channels.remainingComplicationUserInfoTransfers() }
    }

    /// `outstandingUserInfoTransfers`: empty before activation.
    var outstandingUserInfoTransfers: [WCSessionUserInfoTransfer] {
        guard let runtime = session.activeRuntime else { return [] }
        let channels = runtime.channels
        let outstanding = EngineExecutor.shared.blockingCall { () -> [OutboxTransfer] in
            (try? await channels.outstandingUserInfoTransfers()) ?? []
        }
        return outstanding.map { transfers.object(for: $0, channels: channels, isTransferring: true) }
    }

    /// A transfer that was not accepted: returned not transferring, and reported to `didFinish` with `error`.
    private func refused(_ payload: WCSessionUserInfoTransfer.Payload, _ error: WCError) -> WCSessionUserInfoTransfer {
        let transfer = WCSessionUserInfoTransfer(transferId: nil, payload: payload, isTransferring: false, canceller: nil)
        session.logger.debug("userInfo transfer refused", metadata: ["error": "\(error)"])
        session.notifyDelegate { session, delegate in
            delegate.session(session, didFinish: transfer, error: error)
        }
        return transfer
    }
}
