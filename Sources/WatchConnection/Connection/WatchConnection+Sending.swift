import Foundation
import Synchronization

extension WatchConnection {
    /// Sends `request` and returns its response.
    ///
    /// The channel is chosen by `DeliveryPlanner` from `strategy`, `delivery` and the link's state.
    /// Live messages are retried as `retryPolicy` says (transient failures only); a message that
    /// fails for good takes the strategy's fallback channel, whose response comes back as a userInfo
    /// transfer. In `.queued` mode a request that cannot go now waits in the persisted queue (until
    /// flushed, cancelled, dropped or expired). The receiver runs it at most once, whatever the path.
    ///
    /// Cancelling the calling task cancels the request (it leaves the queue) and throws `.cancelled`.
    ///
    /// - Throws: `WatchConnectionError`: `.timeout` when `retryPolicy.timeout` passes first (outside the
    ///   queue); `.payloadTooLarge` (7009) before anything is sent; `.notReachable`/`.notActivated` in
    ///   `.immediate` mode; `.handlerNotRegistered`/`.handlerError` from the receiver; `.cancelled`,
    ///   `.expired`, `.dropped` for queued requests; `.sessionError` for the session's other failures.
    public func send<R: WatchRequest>(
        _ request: R,
        strategy: DeliveryStrategy = .messageWithUserInfoFallback,
        delivery: DeliveryMode = .queued,
        retryPolicy: RetryPolicy = .default
    ) async throws -> R.Response {
        let outgoing = try encode(type: R.requestType, body: request, expectsResponse: true)
        let response = try await perform(outgoing, strategy: strategy, mode: delivery, policy: retryPolicy)
        return try WireEnvelope.body(of: response, as: R.Response.self)
    }

    /// Sends a request that needs no answer; returns once it was answered, handed to a background
    /// channel or queued. Failures are reported only through `diagnosticEvents` (`deliveryFailed`).
    public func send<R: FireAndForgetRequest>(_ request: R, strategy: DeliveryStrategy = .messageWithUserInfoFallback) async {
        do {
            let outgoing = try encode(type: R.requestType, body: request, expectsResponse: false)
            _ = try await perform(outgoing, strategy: strategy, mode: .queued, policy: .default)
        } catch let error as WatchConnectionError {
            logger.debug("fire-and-forget request ended without delivery", metadata: ["WC_REQUEST_TYPE": "\(R.requestType)", "error": "\(error)"])
        } catch {
            logger.debug("fire-and-forget request ended without delivery", metadata: ["WC_REQUEST_TYPE": "\(R.requestType)"])
        }
    }

    /// Encodes a request of wire type `type` once; refuses it (7009) when over the payload limit.
    func encode(type: String, body: some Encodable, expectsResponse: Bool) throws(WatchConnectionError) -> Outgoing {
        let id = UUID.random()
        let header = WireEnvelope.Header(v: WireEnvelope.version, kind: .request, id: id, type: type, reply: expectsResponse)
        let envelope = try WireEnvelope.encode(header, body: body)
        let size = envelope.utf8.count
        guard size <= configuration.payloadLimit else {
            let error = WatchConnectionError.payloadTooLarge(size: size, limit: configuration.payloadLimit)
            emit(.deliveryFailed(type: type, error: error, willRetry: false), requestID: id)
            throw error
        }
        return Outgoing(id: id, type: type, envelope: envelope, expectsResponse: expectsResponse)
    }

    /// Registers the send, arms its timeout, sends its first live message or starts its driver; returns
    /// the response envelope.
    ///
    /// A request whose first step is a live message costs no task and no timer of its own: the message
    /// goes from here, its reply ends the caller's wait on the session's thread (``ResultSlot``), and the
    /// caller counts it when it resumes on the main actor; its timeout is an entry in the connection's
    /// one ``DeadlineSchedule``. Only a failed message starts a driver (retries, fallback, queueing).
    func perform(_ outgoing: Outgoing, strategy: DeliveryStrategy, mode: DeliveryMode, policy: RetryPolicy) async throws -> String {
        let id = outgoing.id
        guard !tasks.isClosed else { throw WatchConnectionError.cancelled }
        // The session may have changed before its event reached us: decide on its state now.
        refreshStatus()
        let request = PendingRequest(type: outgoing.type, startedAt: time.elapsed())
        pending[id] = request
        armTimer(id, after: policy.timeout) { $0.finish(id, .failure(.timeout)) }
        let first = DeliveryPlanner.initial(strategy: strategy, mode: mode, activated: activationState == .activated, reachable: isReachable)
        // Drawn now, as the driver did at its start, so a seeded connection's delays do not depend on
        // which requests needed a driver.
        let seed = jitter.next()
        if case .send(.message) = first {
            let ending = request.ending
            session.sendRequestMessage(outgoing.envelope) { [weak self] result in
                switch result {
                case .success(let reply):
                    ending.resume(.replied(WireEnvelope.result(ofResponse: reply)))
                case .failure(let error):
                    // A reply that came first ends it (the replyAndError quirk: the error is ignored).
                    guard !ending.isDone, let self else { return }
                    self.tasks.start {
                        guard self.pending[id] != nil else { return }
                        self.pending[id]?.driver = self.tasks.start {
                            await self.drive(outgoing, strategy: strategy, mode: mode, policy: policy, seed: seed, firstFailure: error)
                        }
                    }
                }
            }
        } else {
            pending[id]?.driver = tasks.start { await self.drive(outgoing, strategy: strategy, mode: mode, policy: policy, seed: seed) }
        }
        let ending = await withTaskCancellationHandler {
            await request.ending.value()
        } onCancel: {
            // The caller gave up: the request is cancelled, also where it waits in the queue.
            Task { @MainActor [weak self] in
                // After close() the queue stays as it is on disk (its sender was ended already).
                guard let self, !self.tasks.isClosed else { return }
                self.queueRunner.cancel(id: id)
                self.finish(id, .failure(.cancelled))
            }
        }
        switch ending {
        case .replied(let result):
            completeReply(id, result)
            return try result.get()
        case .finished(let result):
            return try result.get()
        }
    }

    /// The first live message of `id` was answered (its caller learnt it first): counts it and ends it.
    private func completeReply(_ id: UUID, _ result: Result<String, WatchConnectionError>) {
        guard pending[id] != nil else { return }
        count(.succeeded, of: id)
        end(id, result, attempt: 1)
    }

    /// Ends the send `id` with `result` unless it has ended (or its first message's reply came first):
    /// resumes its caller once, stops its deadline and driver. `attempt` is the live-message attempt that
    /// was answered, when one was. A failure that says something of the link counts
    /// (`RequestOutcome`), unless the request counted already.
    func finish(_ id: UUID, _ result: Result<String, WatchConnectionError>, attempt: Int? = nil) {
        guard let request = pending[id], request.ending.resume(.finished(result)) else { return }
        if case .failure(let error) = result, let outcome = RequestOutcome(failure: error) { count(outcome, of: id) }
        end(id, result, attempt: attempt)
    }

    /// Forgets the send `id`; reports it sent when it succeeded.
    private func end(_ id: UUID, _ result: Result<String, WatchConnectionError>, attempt: Int?) {
        guard let request = pending.removeValue(forKey: id) else { return }
        deadlines.disarm(id)
        request.driver?.cancel()
        if case .success = result {
            emit(.messageSent(type: request.type, duration: time.elapsed() - request.startedAt), requestID: id, attempt: attempt)
        }
    }

    /// Delivers one request: attempts, retries, fallback or queueing, until it is handed on or ends.
    /// `seed` seeds its retry jitter (nil: the connection's next); `firstFailure`: the first live message
    /// was sent (by `perform`) and failed so.
    func drive(
        _ outgoing: Outgoing, strategy: DeliveryStrategy, mode: DeliveryMode, policy: RetryPolicy, seed: UInt64? = nil,
        firstFailure: WatchConnectionError? = nil
    ) async {
        var step = DeliveryPlanner.initial(
            strategy: strategy, mode: mode, activated: activationState == .activated, reachable: isReachable)
        var attempt = firstFailure == nil ? 0 : 1
        var failure = firstFailure
        var delays = RetryDelaySequence(backoff: policy.backoff, random: SeededRandom(seed: seed ?? jitter.next()))
        // Re-checked after every await: a timeout, cancel or disconnect may have ended the send.
        while pending[outgoing.id] != nil && !Task.isCancelled {
            if let error = failure {
                failure = nil
                let retry = RetryDecision.isRetryable(error) && attempt < policy.maxAttempts
                // The message failed for good: the request counts once, whatever comes next.
                if !retry, let outcome = RequestOutcome(failure: error) { count(outcome, of: outgoing.id) }
                step = retry ? .send(.message) : DeliveryPlanner.afterMessageFailure(strategy: strategy, mode: mode, error: error)
                if case .fail = step {
                    // Reported once, by the `.fail` step.
                } else {
                    emit(.deliveryFailed(type: outgoing.type, error: error, willRetry: retry), requestID: outgoing.id, attempt: attempt)
                }
                if retry, let delay = delays.next() {
                    do { try await time.sleep(delay) } catch { return }
                }
                continue
            }
            switch step {
            case .fail(let error):
                emit(.deliveryFailed(type: outgoing.type, error: error, willRetry: false), requestID: outgoing.id, attempt: attempt > 0 ? attempt : nil)
                finish(outgoing.id, .failure(error))
                return
            case .queue:
                queueRunner.enqueue(outgoing, strategy: strategy)
                return
            case .fallback(let method):
                emit(.fallbackUsed(from: .message, to: method), requestID: outgoing.id)
                step = .send(method)
            case .send(.message):
                attempt += 1
                let result = await session.sendRequestMessage(outgoing.envelope)
                // Ended meanwhile (timeout, cancel, disconnect): `finish` counted what there was to count.
                guard pending[outgoing.id] != nil else { return }
                switch result {
                case .success(let reply):
                    count(.succeeded, of: outgoing.id)
                    finish(outgoing.id, WireEnvelope.result(ofResponse: reply), attempt: attempt)
                    return
                case .failure(let error):
                    failure = error
                }
            case .send(let method):
                do {
                    try session.transfer(outgoing.envelope, on: method)
                    // A fire-and-forget request is done once a durable channel holds it; a request
                    // waits for its response (a userInfo transfer back) within its timeout.
                    if !outgoing.expectsResponse { finish(outgoing.id, .success(outgoing.voidResponse)) }
                } catch {
                    let failure = WatchConnectionError(sessionError: error)
                    emit(.deliveryFailed(type: outgoing.type, error: failure, willRetry: false), requestID: outgoing.id)
                    finish(outgoing.id, .failure(failure))
                }
                return
            }
        }
    }
}
