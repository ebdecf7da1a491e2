/// The fields a vocabulary adds to one event (``EventField``), each name at most once, in the order
/// the journal and stderr show them.
///
/// Two are equal when they hold the same names with the same values, in any order: the history file and
/// `wcctl events --json` keep no order (their keys are sorted), so an event read back from them equals
/// the one written.
public struct EventFields: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// The fields, in order.
    public private(set) var elements: [EventField]

    /// No fields.
    public init() {
        elements = []
    }

    /// The fields given, in order; a later field replaces an earlier one of the same name.
    public init(_ fields: some Sequence<EventField>) {
        elements = []
        for field in fields { self[field.name] = field.value }
    }

    /// The fields given, in order.
    public init(arrayLiteral fields: EventField...) {
        self.init(fields)
    }

    /// The value of the field `name`; setting nil removes it, setting a new name appends it.
    public subscript(name: EventField.Name) -> EventField.Value? {
        get { elements.first { $0.name == name }?.value }
        set {
            let index = elements.firstIndex { $0.name == name }
            switch (index, newValue) {
            case (let index?, let value?): elements[index].value = value
            case (let index?, nil): elements.remove(at: index)
            case (nil, let value?): elements.append(EventField(name, value))
            case (nil, nil): break
            }
        }
    }

    /// The position of the first field.
    public var startIndex: Int { elements.startIndex }
    /// The position after the last field.
    public var endIndex: Int { elements.endIndex }
    /// The field at `position`.
    public subscript(position: Int) -> EventField { elements[position] }

    /// Whether both hold the same fields, in any order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.name] == $0.value }
    }

    /// Hashes the fields regardless of their order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(elements.reduce(0) { $0 &+ $1.hashValue })
    }
}
