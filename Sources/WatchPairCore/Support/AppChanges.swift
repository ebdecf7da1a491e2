/// What changed for the app, by kind, so that each consumer reads the store only for the kinds it shows
/// and that moved: a received userInfo costs the `receive` stream one inbox read, not a read of every
/// kind, and the file landing service none at all.
///
/// One ``AsyncSignal`` per kind, and ``any`` for them all (the engine's `appSignal`). A consumer that
/// shows one kind waits on ``signal(_:)``; one that shows several takes ``marks``, reads the kinds
/// ``Marks/moved(_:since:)`` names, and waits on `any` after `marks.generation`.
public final class AppChanges: Sendable {
    /// A kind of content waiting for the app.
    public enum Kind: Int, CaseIterable, Sendable {
        /// Received userInfo transfers.
        case userInfo
        /// The received application context.
        case context
        /// userInfo transfers the peer acknowledged (didFinish).
        case finished
        /// Received files.
        case receivedFiles
        /// File transfers the peer ended (didFinish).
        case finishedFiles
    }

    /// Fires on every change of any kind.
    public let any = AsyncSignal()
    private let kinds: [AsyncSignal] = Kind.allCases.map { _ in AsyncSignal() }

    /// Nothing changed yet.
    public init() {}

    /// The signal of one kind alone.
    public func signal(_ kind: Kind) -> AsyncSignal { kinds[kind.rawValue] }

    /// Records that `kind` changed (after the store committed it) and wakes its waiters and `any`'s.
    public func fire(_ kind: Kind) {
        // The kind first, `any` second: the reverse of `marks`' order (see there).
        kinds[kind.rawValue].fire()
        any.fire()
    }

    /// Where every kind stands now.
    ///
    /// `any`'s generation is read before the kinds', and ``fire(_:)`` moves them in the other order, so
    /// a change racing this call either shows in the kinds' marks or moves `any` past `generation` (the
    /// consumer's wait then returns at once and it looks again): it may read once more, it never misses one.
    public var marks: Marks {
        let generation = any.generation
        return Marks(generation: generation, kinds: kinds.map(\.generation))
    }

    /// A snapshot of the generations: ``any``'s to wait after, and each kind's to compare with.
    public struct Marks: Sendable, Equatable {
        /// Pass to `any.wait(after:)`.
        public let generation: UInt64
        let kinds: [UInt64]

        /// Whether `kind` changed since `earlier`; always true without an earlier snapshot (a consumer's
        /// first look reads every kind it shows).
        public func moved(_ kind: Kind, since earlier: Marks?) -> Bool {
            guard let earlier else { return true }
            return kinds[kind.rawValue] != earlier.kinds[kind.rawValue]
        }
    }
}
