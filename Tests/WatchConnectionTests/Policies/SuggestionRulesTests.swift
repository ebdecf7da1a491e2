import Testing
import WatchConnection

@Suite("Recovery suggestion rules")
struct SuggestionRulesTests {
    /// A counterpart whose app is installed or not, whose device is on, off, or not known (nil).
    static func counterpart(installed: Bool = true, on: Bool?) -> CounterpartState {
        CounterpartState(appInstalled: installed, deviceOn: on)
    }

    @Test("each rule, its suggestion and severity", arguments: [
        // Installed, not running: the device is on (or the session cannot tell, as Apple's).
        (SuggestionRules.Event.requestFailed(.notReachable, counterpart: counterpart(on: true)), RecoverySuggestion.openCompanionApp, RecoverySuggestion.Severity.minor),
        (.requestFailed(.notReachable, counterpart: counterpart(on: nil)), .openCompanionApp, .minor),
        (.requestFailed(.sessionError(code: 7007, description: ""), counterpart: counterpart(on: true)), .openCompanionApp, .minor),
        // Device off: nothing listens, although the app stays installed.
        (.requestFailed(.notReachable, counterpart: counterpart(on: false)), .checkBluetoothEnabled, .moderate),
        (.requestFailed(.sessionError(code: 7007, description: ""), counterpart: counterpart(on: false)), .checkBluetoothEnabled, .moderate),
        (.requestFailed(.notReachable, counterpart: counterpart(installed: false, on: nil)), .checkBluetoothEnabled, .moderate),
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

    @Test("a failed request other than 'not reachable' suggests nothing itself (health does, when it gets unhealthy)", arguments: [
        WatchConnectionError.timeout, .notActivated, .expired, .sessionError(code: 7014, description: ""),
        .sessionError(code: 7011, description: ""),
    ])
    func otherFailures(error: WatchConnectionError) {
        var rules = SuggestionRules()
        for on in [true, false, nil] as [Bool?] {
            #expect(rules.event(.requestFailed(error, counterpart: Self.counterpart(on: on)), at: .zero) == .none)
        }
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
