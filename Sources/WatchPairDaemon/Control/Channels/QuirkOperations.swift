import WatchPairCore
import WatchPairHost
import WatchPairQuirks
import WatchPairWire

/// The quirks' control operations (docs/ControlProtocol.md): `quirkList`, `quirkSet`, `quirkClear`
/// (`wcctl quirk list|set|clear`).
struct QuirkOperations {
    let channels: AppChannels

    func register(on router: inout ControlRouter) {
        router.register(QuirkListOperation.self) { _, _ in
            Self.list(await channels.quirkStatuses())
        }
        router.register(QuirkSetOperation.self) { request, _ in
            await channels.setQuirk(request.quirk, request.setting)
            return Self.list(await channels.quirkStatuses())
        }
        router.register(QuirkClearOperation.self) { request, _ in
            await channels.clearQuirk(request.quirk)
            return Self.list(await channels.quirkStatuses())
        }
    }

    /// `{"quirks": [...]}`: every quirk in catalog order, whether set, its setting and counts, its summary.
    static func list(_ statuses: [QuirkMachine.Status]) -> JSONValue {
        .object(["quirks": .array(Quirk.allCases.map { quirk in
            var object: [String: JSONValue] = ["name": .string(quirk.rawValue), "summary": .string(quirk.summary)]
            guard let status = statuses.first(where: { $0.quirk == quirk }) else {
                object["set"] = .bool(false)
                return .object(object)
            }
            object["set"] = .bool(true)
            object["probability"] = .double(status.setting.probability)
            object["count"] = status.setting.count.map { .integer(Int64($0)) } ?? .null
            object["seed"] = .integer(Int64(bitPattern: status.setting.seed))
            object["delay"] = .string(QuirkSetting.text(status.setting.delay))
            object["opportunities"] = .integer(Int64(status.opportunities))
            object["injections"] = .integer(Int64(status.injections))
            object["spent"] = .bool(status.isSpent)
            return .object(object)
        })])
    }
}

/// A quirk's name read from a field: 7008 with the list of names when there is no such quirk.
private func quirkField(_ fields: inout ControlFieldReader) throws(WCFailure) -> Quirk? {
    guard let name = try fields.string() else { return nil }
    do throws(QuirkError) {
        return try Quirk(named: name)
    } catch {
        throw WCFailure(.invalidParameter, error.description)
    }
}

/// `quirkList`: every quirk, set or not.
struct QuirkListOperation: FieldlessControlOperation {
    static let name = "quirkList"
}

/// `quirkSet`: `name` (required), `probability` (0…1), `count` (≥ 1), `seed`, `delay` (`2s`, `500ms...3s`).
struct QuirkSetOperation: ControlOperation {
    static let name = "quirkSet"

    var quirk: Quirk
    var setting: QuirkSetting

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        var quirk: Quirk?
        var probability = 1.0
        var count: Int?
        var seed: UInt64 = 0
        var delay = QuirkSetting.defaultDelay
        while let field = try fields.next() {
            switch field {
            case "name": quirk = try quirkField(&fields)
            case "probability": probability = try fields.number() ?? probability
            case "count": count = try fields.integer().map { Int(clamping: $0) }
            case "seed": seed = try fields.unsignedInteger() ?? seed
            case "delay":
                if let text = try fields.string() {
                    do throws(QuirkError) { delay = try QuirkSetting.delay(parsing: text) } catch {
                        throw WCFailure(.invalidParameter, error.description)
                    }
                }
            default: try fields.skip()
            }
        }
        guard let quirk else { throw Self.missing("name") }
        self.quirk = quirk
        do throws(QuirkError) {
            setting = try QuirkSetting(probability: probability, count: count, seed: seed, delay: delay)
        } catch {
            throw WCFailure(.invalidParameter, error.description)
        }
    }
}

/// `quirkClear`: `name`, or every quirk without it.
struct QuirkClearOperation: ControlOperation {
    static let name = "quirkClear"

    var quirk: Quirk?

    init(fields: inout ControlFieldReader) throws(WCFailure) {
        quirk = try fields.only("name", quirkField)
    }
}
