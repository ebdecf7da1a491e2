import Testing
import WatchConnection

@Suite("Health machine")
struct HealthMachineTests {
    typealias Step = (event: HealthMachine.Event, action: HealthMachine.Action, health: SessionHealth)

    @Test("3 failures → degraded, 10 → unhealthy, one success → healthy; each change reported once")
    func defaultThresholds() {
        var machine = HealthMachine()
        var steps: [Step] = [
            (.failed, .none, .healthy), (.failed, .none, .healthy),
            (.failed, .changed(from: .healthy, to: .degraded), .degraded),
        ]
        steps += (4...9).map { _ in (.failed, .none, .degraded) }
        steps += [
            (.failed, .changed(from: .degraded, to: .unhealthy), .unhealthy),
            (.failed, .none, .unhealthy),
            (.succeeded, .changed(from: .unhealthy, to: .healthy), .healthy),
            (.succeeded, .none, .healthy),
            (.failed, .none, .healthy),
        ]
        for (index, step) in steps.enumerated() {
            #expect(machine.event(step.event) == step.action, "step \(index)")
            #expect(machine.health == step.health, "step \(index)")
        }
    }

    @Test("configurable thresholds; a success in between starts the count again")
    func configured() {
        var machine = HealthMachine(thresholds: .init(degradedAfter: 1, unhealthyAfter: 2))
        #expect(machine.event(.failed) == .changed(from: .healthy, to: .degraded))
        #expect(machine.event(.succeeded) == .changed(from: .degraded, to: .healthy))
        #expect(machine.event(.failed) == .changed(from: .healthy, to: .degraded))
        #expect(machine.event(.failed) == .changed(from: .degraded, to: .unhealthy))
        #expect(machine.consecutiveFailures == 2)
    }

    @Test("thresholds are kept consistent")
    func thresholdsNormalised() {
        let thresholds = HealthMachine.Thresholds(degradedAfter: 5, unhealthyAfter: 2)
        #expect(thresholds.unhealthyAfter == 5)
        #expect(HealthMachine.Thresholds(degradedAfter: 0).degradedAfter == 1)
    }

    @Test("isHealthy and requiresUserIntervention", arguments: [
        (SessionHealth.healthy, true, false), (.degraded, false, false), (.unhealthy, false, true),
    ])
    func properties(health: SessionHealth, healthy: Bool, intervention: Bool) {
        #expect(health.isHealthy == healthy)
        #expect(health.requiresUserIntervention == intervention)
    }
}
