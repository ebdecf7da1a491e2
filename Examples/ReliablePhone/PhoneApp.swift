import ExampleConsole
import Foundation
import ReliableShared
import WatchConnection

/// The iPhone side of a running app on the reliability layer: it answers the watch's typed requests
/// and pushes the weekly goal to the watch.
@MainActor
final class PhoneApp {
    let connection: WatchConnection
    private let log = WorkoutLog()

    init(connection: WatchConnection) {
        self.connection = connection
    }

    /// Registers the handlers, shows the connection, and goes `.active`.
    func start() async {
        let log = self.log
        // One handler per request type. Each runs at most once per request: a retry, a fallback copy
        // or a queue flush of the same request is answered with the recorded response.
        connection.register(FetchPlan.self) { request in
            Console.report("handled", ["type": FetchPlan.requestType, "day": request.day])
            return await log.plan(for: request.day)
        }
        connection.register(SaveWorkout.self) { workout in
            Console.report("handled", ["type": SaveWorkout.requestType, "workout": workout.workoutID.uuidString, "km": workout.kilometres])
            return await log.save(workout)
        }
        connection.register(AddNote.self) { note in
            Console.report("handled", ["type": AddNote.requestType, "text": note.text])
            return await log.add(note: note.text)
        }
        connection.register(LogEvent.self) { event in
            Console.report("handled", ["type": LogEvent.requestType, "name": event.name])
            return VoidResponse()
        }
        ConnectionDisplay.show(connection)
        await connection.connect()
    }

    /// A command typed on stdin.
    func perform(_ command: String, _ argument: String) {
        switch command {
        case "goal": Task { await setGoal(argument) }
        case "health": ConnectionDisplay.showHealth(connection)
        case "recover": Task { await recover(connection) }
        default: Console.report("unknown-command", ["command": command])
        }
    }

    /// The weekly goal: only the newest matters, so a live message, else the application context.
    func setGoal(_ text: String) async {
        guard let kilometres = Double(text) else {
            Console.report("usage", ["command": "goal", "expected": "goal KILOMETRES, e.g. goal 30"])
            return
        }
        do {
            let ack = try await connection.send(SetGoal(kilometres: kilometres), strategy: .messageWithContextFallback)
            Console.report("goal-acknowledged", ["km": ack.kilometres])
        } catch {
            Console.failure(SetGoal.requestType, error)
        }
    }
}
