import Foundation
import ReliableShared

/// The phone app's data: the workout log and the diary. Handlers run off the main actor, so it is an actor.
actor WorkoutLog {
    private var kilometres: [UUID: Double] = [:]
    private var notes: [String] = []

    /// Adds a workout once per `workoutID`. The layer already runs a request once per request id; this
    /// key covers what only the app can: a crash inside the handler, before its answer was recorded,
    /// makes the sender's retry run the handler again (docs/ReliableSync.md, "Exactly once").
    func save(_ workout: SaveWorkout) -> SaveReceipt {
        kilometres[workout.workoutID] = workout.kilometres
        return SaveReceipt(workouts: kilometres.count, totalKilometres: kilometres.values.reduce(0, +))
    }

    /// Adds a note to the diary.
    func add(note: String) -> NoteReceipt {
        notes.append(note)
        return NoteReceipt(notes: notes.count)
    }

    /// The plan of `day` (a fixed week: this example has no planner).
    func plan(for day: String) -> Plan {
        let week = ["monday": ["easy 5 km"], "wednesday": ["intervals 6×800 m"], "saturday": ["long 16 km"]]
        return Plan(day: day, runs: week[day.lowercased()] ?? [])
    }
}
