import WatchPairWire

/// Where things go in the drawn diagram: columns, rows and the width a label needs.
struct SVGGeometry {
    let rowCount: Int
    let width = 1040
    let rowHeight = 34
    let top = 104
    let timeColumn = 150

    /// The x of an app's lifeline: the phone left, the watch right.
    func x(_ role: Role) -> Int { role == .phone ? 380 : 820 }

    /// The y of the middle of `row`.
    func y(_ row: Int) -> Int { top + row * rowHeight + rowHeight / 2 }

    /// The y just below the last row.
    var bottom: Int { top + rowCount * rowHeight + 24 }

    /// An estimate of the width of `text` at the 12 px label font (no font metrics without a browser).
    static func textWidth(_ text: String) -> Int { text.count * 7 + 4 }
}
