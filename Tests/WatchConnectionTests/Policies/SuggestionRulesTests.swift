import Testing
import WatchConnection

@Suite("Recovery suggestion rules")
struct SuggestionRulesTests {
    @Test("each rule, its suggestion and severity", arguments: [
        (SuggestionRules.Event.unreachable(counterpartInstalled: true), RecoverySuggestion.openCompanionApp, RecoverySuggestion.Severity.minor),
        (.unreachable(counterpartInstalled: false), .checkBluetoothEnabled, .moderate),
        (.activationFailed, .checkBluetoothEnabled, .moderate),
        (.healthChanged(.unhealthy), .restartWatch, .major),
        (.recoveryFailed, .repairDevices, .critical),
    ])
    func rules(event: SuggestionRules.Event, suggestion: RecoverySuggestion, severity: RecoverySuggestion.Severity) {
        var rules = SuggestionRules()
        #expect(rules.event(event, at: .zero) == .suggest(suggestion))
        #expect(suggestion.severity == severity)
        #expect(!suggestion.title.isEmpty && !suggestion.message.isEmpty)
    }

    @Test("health other than unhealthy suggests nothing")
    func healthyOrDegraded() {
        var rules = SuggestionRules()
        #expect(rules.event(.healthChanged(.degraded), at: .zero) == .none)
        #expect(rules.event(.healthChanged(.healthy), at: .zero) == .none)
    }

    @Test("the same suggestion is made once per 30 s window; another one is not held back")
    func dedupe() {
        var rules = SuggestionRules()
        let steps: [(SuggestionRules.Event, Duration, SuggestionRules.Action)] = [
            (.recoveryFailed, .seconds(0), .suggest(.repairDevices)),
            (.recoveryFailed, .seconds(10), .none),
            (.healthChanged(.unhealthy), .seconds(11), .suggest(.restartWatch)),
            (.recoveryFailed, .milliseconds(29_999), .none),
            (.recoveryFailed, .seconds(30), .suggest(.repairDevices)),
            (.recoveryFailed, .seconds(59), .none),
            (.recoveryFailed, .seconds(61), .suggest(.repairDevices)),
        ]
        for (index, (event, time, action)) in steps.enumerated() {
            #expect(rules.event(event, at: time) == action, "step \(index)")
        }
    }

    @Test("flapping: 3 reachability changes within 60 s suggest bringDevicesCloser")
    func flapping() {
        var rules = SuggestionRules()
        #expect(rules.event(.reachabilityChanged, at: .seconds(0)) == .none)
        #expect(rules.event(.reachabilityChanged, at: .seconds(50)) == .none)
        // The first change is now older than the window: still only two within it.
        #expect(rules.event(.reachabilityChanged, at: .seconds(70)) == .none)
        #expect(rules.event(.reachabilityChanged, at: .seconds(80)) == .suggest(.bringDevicesCloser))
        #expect(rules.event(.reachabilityChanged, at: .seconds(90)) == .none)  // deduplicated
    }
}
