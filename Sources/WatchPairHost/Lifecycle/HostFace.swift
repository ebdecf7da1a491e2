import ServiceLifecycle

/// What an app puts on its host (``buildHost(configuration:logger:environment:face:)``): the operations
/// of its control socket and, optionally, a service of its own that shares the host's lifetime.
///
/// The service runs in the host's service group right after the engine: it starts with the engine, and
/// at shutdown it is stopped after the control server and before the engine and the store, so it can
/// still use both while it stops and nothing of it runs once ``PairHost/run(handlingSignals:)`` returns.
/// The daemons' reliability layer is such a service.
public struct HostFace: Sendable {
    /// The control socket's operations.
    public var controlRouter: ControlRouter
    /// Runs beside the engine for the host's whole run; nil: none.
    public var service: (any Service)?

    /// A face of `controlRouter` and `service`.
    public init(controlRouter: ControlRouter, service: (any Service)? = nil) {
        self.controlRouter = controlRouter
        self.service = service
    }
}
