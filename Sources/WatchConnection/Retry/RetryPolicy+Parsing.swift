extension RetryPolicy {
    /// The policy a configuration or command line names: `default`, `patient`, `none`, or
    /// `N/SECONDS` (N attempts, 1…100, within SECONDS, more than 0 and at most 86,400, with the default
    /// backoff). Nil for anything else.
    public init?(named name: String) {
        switch name {
        case "default": self = .default
        case "patient": self = .patient
        case "none": self = .none
        default:
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let attempts = Int(parts[0]), (1...100).contains(attempts),
                let seconds = Double(parts[1]), seconds.isFinite, seconds > 0, seconds <= 86_400
            else { return nil }
            self.init(maxAttempts: attempts, timeout: .milliseconds(Int64((seconds * 1000).rounded())))
        }
    }

    /// What `init(named:)` accepts, for error messages.
    public static let namedForms = "default, patient, none, or N/SECONDS (e.g. 5/30)"
}
