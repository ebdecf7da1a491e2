import Foundation

/// The daily budget of complication transfers (`remainingComplicationUserInfoTransfers`): a pure machine.
///
/// Apple gives an app a number of `transferCurrentComplicationUserInfo` calls a day (50); past that the
/// call still delivers, but as a plain userInfo (`isCurrentComplicationInfo` false). Days are UTC calendar
/// days of the wall time the engine derives from its injected clock, so a test steps a manual clock
/// across midnight. The count is the machine's ``state``, which the engine persists in its store after
/// each change, so a restart keeps it.
///
/// Transitions:
/// - `transfer` on the stored day: counts one while some remain (`.complication`), else `.plain`;
/// - `transfer` or `read` on a later day: the count restarts at zero first;
/// - a day earlier than the stored one (the wall clock set back) keeps the stored day and its count, so
///   moving the clock back never grants a second budget;
/// - `refund`: a counted transfer the store then refused is given back (same day only).
public struct ComplicationBudget: Sendable, Hashable {
    /// What is persisted: the day counted and how many complication transfers went on it.
    public struct State: Sendable, Hashable, Codable {
        /// UTC days since 1970-01-01 (0: never used).
        public var day: Int64
        /// Complication transfers counted on `day`.
        public var used: Int

        public init(day: Int64 = 0, used: Int = 0) {
            self.day = day
            self.used = used
        }
    }

    /// What happened.
    public enum Event: Sendable, Hashable {
        /// The app calls `transferCurrentComplicationUserInfo` on `day`.
        case transfer(day: Int64)
        /// The app reads `remainingComplicationUserInfoTransfers` on `day`.
        case read(day: Int64)
        /// The transfer counted on `day` was not accepted (the store refused it): give it back.
        case refund(day: Int64)
    }

    /// What the engine does.
    public enum Action: Sendable, Hashable {
        /// Send it flagged as the current complication info; `remaining` after this one. Persist ``state``.
        case complication(remaining: Int)
        /// The budget is used up: send it as a plain userInfo. Nothing to persist.
        case plain
        /// Report `remaining`. After a read the engine need not persist: a new day it began is begun again
        /// by the next event after a restart; after a refund it persists ``state``.
        case remaining(Int)
    }

    /// Transfers allowed per day (at least 0).
    public let dailyLimit: Int
    /// The persisted part.
    public private(set) var state: State

    /// A budget of `dailyLimit` a day, resuming from `state` as the store last held it.
    public init(dailyLimit: Int, state: State = State()) {
        self.dailyLimit = max(0, dailyLimit)
        self.state = state
    }

    /// The UTC day of `date`: whole days since 1970-01-01T00:00:00Z.
    public static func day(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// Applies one event; the engine executes the action.
    public mutating func event(_ event: Event) -> Action {
        switch event {
        case .transfer(let day):
            startDay(day)
            guard state.used < dailyLimit else { return .plain }
            state.used += 1
            return .complication(remaining: dailyLimit - state.used)
        case .read(let day):
            startDay(day)
            return .remaining(remaining)
        case .refund(let day):
            if day == state.day, state.used > 0 { state.used -= 1 }
            return .remaining(remaining)
        }
    }

    /// Remaining on the stored day (without moving to a new day: use `.read` for that).
    public var remaining: Int { dailyLimit - min(state.used, dailyLimit) }

    /// Moves to `day` when it is later than the stored one.
    private mutating func startDay(_ day: Int64) {
        guard day > state.day else { return }
        state = State(day: day, used: 0)
    }
}
