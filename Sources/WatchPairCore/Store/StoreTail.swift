/// A row a ``StoreTail`` can hold.
protocol StoreTailRow: Sendable {
    /// The row's place in its table: strictly increasing in insertion order and never reused (the
    /// outbox's seq, the inbox's delivery id).
    var position: UInt64 { get }
    /// About how many bytes it keeps in memory, for the tail's bound.
    var byteCount: Int { get }
}

/// The newest rows of one store table, in memory, as the committed transactions left them: the readers
/// that follow a table's tail (the app's `receive` stream and the daemon's layer on the inbox; the
/// outbox pump and a didFinish stream on the outbox) take what was just written without a read
/// transaction, which is a hop to a reader thread and back.
///
/// Invariant: every row of the table with a position above ``floor`` is in ``rows``, as the last commit
/// left it. So a page after a position at or above the floor is answered here, and a page from further
/// back (``page(after:limit:where:)`` returns nil) is read from the table. The store changes the tail only
/// after the transaction's COMMIT succeeded, on the writer, in commit order (`StoreDatabase.write`'s
/// `afterCommit`), so a reader woken by what a commit signalled finds its rows here.
///
/// Bound: at most `maxRows` rows and `maxBytes` bytes; the oldest go first, and the floor rises past them.
/// Rows leave as their table loses them (consumed, reported, cancelled), so an idle side holds none.
struct StoreTail<Row: StoreTailRow>: Sendable {
    /// Rows above this position are all here; nil until the first append (what was in the table at open
    /// is read from it).
    private(set) var floor: UInt64?
    /// In position order.
    private(set) var rows: [Row] = []
    private(set) var byteCount = 0
    let maxRows: Int
    let maxBytes: Int

    init(maxRows: Int, maxBytes: Int) {
        precondition(maxRows > 0 && maxBytes > 0, "a tail holds at least one row")
        self.maxRows = maxRows
        self.maxBytes = maxBytes
    }

    /// Rows a transaction inserted, in position order, all above every row inserted before.
    mutating func append(_ inserted: [Row]) {
        guard let first = inserted.first else { return }
        precondition(first.position > (rows.last?.position ?? floor ?? 0), "tail rows appended out of order")
        // Positions are never reused, so nothing in the table lies above the first new row but the new rows.
        if floor == nil { floor = first.position - 1 }
        rows.append(contentsOf: inserted)
        byteCount += inserted.reduce(0) { $0 + $1.byteCount }
        var dropped = 0
        while rows.count - dropped > maxRows || (byteCount > maxBytes && dropped < rows.count) {
            byteCount -= rows[dropped].byteCount
            floor = rows[dropped].position
            dropped += 1
        }
        rows.removeFirst(dropped)
    }

    /// Rows a transaction deleted.
    mutating func remove(where deleted: (Row) -> Bool) {
        rows.removeAll { row in
            guard deleted(row) else { return false }
            byteCount -= row.byteCount
            return true
        }
    }

    /// Rows a transaction changed.
    mutating func update(where changed: (Row) -> Bool, _ change: (inout Row) -> Void) {
        for index in rows.indices where changed(rows[index]) { change(&rows[index]) }
    }

    /// The rows matching `predicate` above `position`, in order, at most `limit`; nil when the tail does
    /// not cover `position` (read the table instead).
    func page(after position: UInt64, limit: Int, where predicate: (Row) -> Bool = { _ in true }) -> [Row]? {
        scan(after: position, limit: limit, where: predicate)?.rows
    }

    /// ``page(after:limit:where:)``, and the position up to which every row was looked at (`through`):
    /// a reader of some rows only (one inbox queue) continues after it, not after the last row it took,
    /// so it never looks at the other rows again.
    func scan(after position: UInt64, limit: Int, where predicate: (Row) -> Bool) -> (rows: [Row], through: UInt64)? {
        guard let floor, position >= floor else { return nil }
        var page: [Row] = []
        for row in rows where row.position > position {
            guard predicate(row) else { continue }
            guard page.count < limit else { return (page, page.last?.position ?? position) }
            page.append(row)
        }
        return (page, max(position, rows.last?.position ?? floor))
    }
}
