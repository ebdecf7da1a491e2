import Foundation
import WatchConnection

// The requests both apps share: in a real project, a small framework both targets link, as here.
// Each type's name is its `requestType` on the wire, so both apps must agree on these definitions.

/// Watch → phone: the training plan of a day, for the plan screen. Live only (`.messageOnly`,
/// `.immediate`): a plan shown minutes late is worthless, so the screen says "open the app on your
/// iPhone" at once instead of waiting.
public struct FetchPlan: WatchRequest {
    /// What the receiver answers.
    public typealias Response = Plan
    /// The day, as the user picked it (`monday`…).
    public let day: String

    /// A value with these fields.
    public init(day: String) { self.day = day }
}

/// The phone's answer to `FetchPlan`.
public struct Plan: Codable, Sendable, Equatable {
    /// The day asked for.
    public let day: String
    /// The day's runs, in order (empty on a rest day).
    public let runs: [String]

    /// A value with these fields.
    public init(day: String, runs: [String]) {
        self.day = day
        self.runs = runs
    }
}

/// Watch → phone: a finished workout, which the phone adds to its log. It needs its answer (the new
/// weekly total) and may wait for it: `.messageOnly` in `.queued` mode keeps it in the watch's persisted
/// request queue while the phone app is off, and the flush sends it when the phone is reachable again.
public struct SaveWorkout: WatchRequest {
    /// What the receiver answers.
    public typealias Response = SaveReceipt
    /// The app's own key of this workout. The layer runs a request once per request id; this key lets
    /// the phone's log stay right even across a crash inside its handler (see `WorkoutLog`).
    public let workoutID: UUID
    /// Distance in kilometres.
    public let kilometres: Double

    /// A value with these fields.
    public init(workoutID: UUID = UUID(), kilometres: Double) {
        self.workoutID = workoutID
        self.kilometres = kilometres
    }
}

/// The phone's answer to `SaveWorkout`.
public struct SaveReceipt: Codable, Sendable, Equatable {
    /// Workouts in the log, this one included.
    public let workouts: Int
    /// Their total distance in kilometres.
    public let totalKilometres: Double

    /// A value with these fields.
    public init(workouts: Int, totalKilometres: Double) {
        self.workouts = workouts
        self.totalKilometres = totalKilometres
    }
}

/// Watch → phone: a note for the workout diary. It must arrive (the default strategy,
/// `.messageWithUserInfoFallback`): live when the phone app runs, else a durable userInfo transfer that
/// the phone runs when it next starts.
public struct AddNote: WatchRequest {
    /// What the receiver answers.
    public typealias Response = NoteReceipt
    /// The note's text.
    public let text: String

    /// A value with these fields.
    public init(text: String) { self.text = text }
}

/// The phone's answer to `AddNote`.
public struct NoteReceipt: Codable, Sendable, Equatable {
    /// Notes in the diary, this one included.
    public let notes: Int

    /// A value with these fields.
    public init(notes: Int) { self.notes = notes }
}

/// Watch → phone: an analytics event. Nobody waits for it (fire-and-forget), but every event must be
/// counted, in order: `.userInfoOnly`.
public struct LogEvent: FireAndForgetRequest {
    /// The event's name (`screen_view`…).
    public let name: String

    /// A value with these fields.
    public init(name: String) { self.name = name }
}

/// Phone → watch: the weekly goal. Only the newest goal matters: `.messageWithContextFallback` shows it
/// at once when the watch app runs, else leaves it in the application context for its next launch.
public struct SetGoal: WatchRequest {
    /// What the receiver answers.
    public typealias Response = GoalAck
    /// The goal in kilometres a week.
    public let kilometres: Double

    /// A value with these fields.
    public init(kilometres: Double) { self.kilometres = kilometres }
}

/// The watch's answer to `SetGoal`.
public struct GoalAck: Codable, Sendable, Equatable {
    /// The goal the watch now shows.
    public let kilometres: Double

    /// A value with these fields.
    public init(kilometres: Double) { self.kilometres = kilometres }
}
