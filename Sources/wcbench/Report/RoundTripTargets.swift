/// Issue 15's targets for the message round trip through the daemons, as limits of one run.
///
/// The round trip (client → phoned → watchd → phoned → client) crosses four sockets where the raw
/// ping-pong crosses two, so 2× the ping-pong is its floor, not its target: the issue asks for at most
/// 2.5× the ping-pong's p50, and at most 4× its p99 (p99 against p99). The relay floor of the baseline
/// section shows what four crossings through two processes that do no work cost on the machine.
enum RoundTripTargets {
    /// The p50 may be at most this many times the raw ping-pong's p50.
    static let p50Factor = 2.5
    /// The p99 may be at most this many times the raw ping-pong's p99.
    static let p99Factor = 4.0

    /// `≤ 2.5× ping-pong p50`, resolved against this run's ping-pong.
    static func p50(pingPong: LatencySummary) -> Target {
        Target(comparison: "<=", limit: p50Factor * pingPong.p50, text: "≤ \(text(p50Factor))× ping-pong p50")
    }

    /// `≤ 4× ping-pong p99`, resolved against this run's ping-pong.
    static func p99(pingPong: LatencySummary) -> Target {
        Target(comparison: "<=", limit: p99Factor * pingPong.p99, text: "≤ \(text(p99Factor))× ping-pong p99")
    }

    /// `2.5`, `4`: a factor as the issue writes it.
    private static func text(_ factor: Double) -> String {
        factor == factor.rounded() ? String(Int(factor)) : String(factor)
    }
}
