import ExampleConsole
import Foundation
import ReliableShared
import WatchConnection

/// The Apple Watch side of the running app: it asks the phone for plans, saves workouts and notes,
/// counts screen views, and shows the goal the phone sets. Each request type has the delivery strategy
/// that fits what the user expects of it (docs/ReliableSync.md, "Choosing a strategy").
@MainActor
final class WatchApp {
    let connection: WatchConnection

    init(connection: WatchConnection) {
        self.connection = connection
    }

    /// Registers the goal handler, shows the connection, and goes `.active` so that queued requests
    /// flush by themselves whenever the phone becomes reachable.
    func start() async {
        connection.register(SetGoal.self) { goal in
            Console.report("goal", ["km": goal.kilometres])
            return GoalAck(kilometres: goal.kilometres)
        }
        ConnectionDisplay.show(connection)
        await connection.connect()
    }

    /// A command typed on stdin.
    func perform(_ command: String, _ argument: String) {
        switch command {
        case "plan": Task { await showPlan(day: argument) }
        case "save": Task { await save(kilometresText: argument) }
        case "note": Task { await addNote(argument) }
        case "view": Task { await connection.send(LogEvent(name: "screen_view:\(argument)"), strategy: .userInfoOnly) }
        case "health": ConnectionDisplay.showHealth(connection)
        case "recover": Task { await recover(connection) }
        default: Console.report("unknown-command", ["command": command])
        }
    }

    /// The plan screen: live only. When the phone app is not running it says so at once (7007) rather
    /// than wait: a plan shown minutes late is of no use on the wrist.
    func showPlan(day: String) async {
        do {
            let plan = try await connection.send(FetchPlan(day: day), strategy: .messageOnly, delivery: .immediate, retryPolicy: .none)
            Console.report("plan", ["day": plan.day, "runs": plan.runs])
        } catch {
            Console.failure(FetchPlan.requestType, error)
        }
    }

    /// Saves a finished workout. It waits in the persisted queue while the phone app is off (it also
    /// survives this app being killed) and is sent when the phone is reachable again; `.patient` gives
    /// a flaky link five attempts once it is.
    func save(kilometresText: String) async {
        guard let kilometres = Double(kilometresText) else {
            Console.report("usage", ["command": "save", "expected": "save KILOMETRES, e.g. save 5.2"])
            return
        }
        let workout = SaveWorkout(kilometres: kilometres)
        Console.report("saving", ["workout": workout.workoutID.uuidString, "km": kilometres])
        do {
            let receipt = try await connection.send(workout, strategy: .messageOnly, delivery: .queued, retryPolicy: .patient)
            Console.report("saved", ["workout": workout.workoutID.uuidString, "workouts": receipt.workouts, "totalKm": receipt.totalKilometres])
        } catch {
            Console.failure(SaveWorkout.requestType, error)
        }
    }

    /// Adds a diary note: it must arrive, so the default strategy (a live message, else userInfo).
    func addNote(_ text: String) async {
        do {
            let receipt = try await connection.send(AddNote(text: text))
            Console.report("noted", ["notes": receipt.notes])
        } catch {
            Console.failure(AddNote.requestType, error)
        }
    }
}
