/// ISO 8601 text for dates, exact in both directions (the `$date` JSON convention).
///
/// `format` writes `YYYY-MM-DDTHH:MM:SS.fffZ` (UTC) with at least three fractional digits and as many
/// more as the shortest decimal form of the `Double` needs, so `parse(format(t)) == t` bit for bit.
/// `parse` accepts `YYYY-MM-DD`, `T` (or `t`, or a space), `HH:MM:SS`, optional `.` and 1–64 fractional
/// digits, then `Z`, `z`, `±HH:MM` or `±HHMM`. Years are 0000–9999. The arithmetic is done on
/// decimal digits and rounded once by `Double(String)`, so no precision is lost on the way.
///
/// `format` never writes more fractional digits than `parse` reads (``maxFractionDigits``): a shortest
/// form has at most 17 significant digits, so every `t` with |t| ≥ 1e-48 fits, and for the few closer to
/// 2001-01-01T00:00:00Z that do not (up to about 325 digits, e.g. 324 for 5e-324) `format` returns nil and
/// the caller writes the number instead, as for dates outside years 0000–9999.
enum ISO8601Timestamp {
    /// The most fractional digits `parse` reads and `format` writes.
    static let maxFractionDigits = 64
    /// Seconds from 1970-01-01 to 2001-01-01 (the reference date of `Date`).
    static let referenceUnixOffset: Int64 = 978_307_200
    /// First and one-past-last second (since 2001) of years 0000–9999.
    static let minSeconds = daysFromCivil(0, 1, 1) * 86_400 - referenceUnixOffset
    static let endSeconds = daysFromCivil(10_000, 1, 1) * 86_400 - referenceUnixOffset

    /// The text for `t` seconds since 2001-01-01, or nil when `t` is not finite, outside years 0000–9999,
    /// or needs more than ``maxFractionDigits`` fractional digits to be exact.
    static func format(_ t: Double) -> String? {
        guard t.isFinite, t >= Double(minSeconds), t < Double(endSeconds) else { return nil }
        var (intDigits, fracDigits) = decimalExpansion(of: t.magnitude)
        guard var seconds = Int64(String(decoding: intDigits, as: UTF8.self)) else { return nil }
        if t < 0 {
            // floor(t) and t − floor(t), on the digits: −12.25 = −13 + 0.75.
            seconds = -seconds
            if fracDigits.contains(where: { $0 != UInt8(ascii: "0") }) {
                seconds -= 1
                fracDigits = complement(fracDigits)
            }
        }
        while fracDigits.last == UInt8(ascii: "0") { fracDigits.removeLast() }
        // Text that `parse` would refuse is never written (a date within 1e-48 s of 2001-01-01 can need it).
        guard fracDigits.count <= maxFractionDigits else { return nil }
        while fracDigits.count < 3 { fracDigits.append(UInt8(ascii: "0")) }

        var text: [UInt8] = []
        text.reserveCapacity(21 + fracDigits.count)
        appendDateTime(unixSeconds: seconds + referenceUnixOffset, to: &text)
        text.append(UInt8(ascii: "."))
        text.append(contentsOf: fracDigits)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// Seconds since 2001-01-01 for `text`, or nil when it is not a valid timestamp in the accepted form.
    static func parse(_ text: String) -> Double? {
        let b = Array(text.utf8)
        var i = 0
        func number(_ width: Int) -> Int64? {
            guard i + width <= b.count else { return nil }
            var v: Int64 = 0
            for k in i..<(i + width) {
                guard b[k] >= UInt8(ascii: "0"), b[k] <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int64(b[k] - UInt8(ascii: "0"))
            }
            i += width
            return v
        }
        func literal(_ allowed: String) -> Bool {
            guard i < b.count, allowed.utf8.contains(b[i]) else { return false }
            i += 1
            return true
        }
        guard let year = number(4), literal("-"), let month = number(2), literal("-"), let day = number(2),
            literal("Tt "), let hour = number(2), literal(":"), let minute = number(2), literal(":"),
            let second = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }

        var fraction: [UInt8] = []
        if literal(".") {
            while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9"), fraction.count <= maxFractionDigits {
                fraction.append(b[i])
                i += 1
            }
            guard (1...maxFractionDigits).contains(fraction.count) else { return nil }
        }

        var offset: Int64 = 0
        if literal("Zz") {
            // UTC
        } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign: Int64 = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = number(2) else { return nil }
            _ = literal(":")
            guard let om = number(2), oh <= 23, om <= 59 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }

        let seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
            - offset - referenceUnixOffset
        guard fraction.contains(where: { $0 != UInt8(ascii: "0") }) else { return Double(seconds) }
        // seconds + 0.fraction as one decimal literal, so Double rounds exactly once.
        let literalText = seconds >= 0
            ? "\(seconds)." + String(decoding: fraction, as: UTF8.self)
            : "-\(-seconds - 1)." + String(decoding: complement(fraction), as: UTF8.self)
        return Double(literalText)
    }

    // MARK: - Decimal digits

    /// Integer and fraction digits of a finite, non-negative `Double`, from its shortest round-trip form.
    static func decimalExpansion(of value: Double) -> (integer: [UInt8], fraction: [UInt8]) {
        let text = Array(value.description.utf8)  // e.g. "757382400.123", "1e-07", "1.5e+16"
        var mantissa = text[...]
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            mantissa = text[..<e]
            exponent = Int(String(decoding: text[(e + 1)...], as: UTF8.self)) ?? 0
        }
        let point = mantissa.firstIndex(of: UInt8(ascii: ".")) ?? mantissa.endIndex
        let digits = Array(mantissa[..<point]) + Array(mantissa[point...].dropFirst())
        let pointPosition = (point - mantissa.startIndex) + exponent  // digits before the point
        let zero = UInt8(ascii: "0")
        var integer: [UInt8], fraction: [UInt8]
        if pointPosition <= 0 {
            integer = [zero]
            fraction = [UInt8](repeating: zero, count: -pointPosition) + digits
        } else if pointPosition >= digits.count {
            integer = digits + [UInt8](repeating: zero, count: pointPosition - digits.count)
            fraction = []
        } else {
            integer = Array(digits[..<pointPosition])
            fraction = Array(digits[pointPosition...])
        }
        while integer.count > 1, integer.first == zero { integer.removeFirst() }
        return (integer, fraction)
    }

    /// 10ⁿ − D for an n-digit, non-zero fraction D: the fraction part of −(k + 0.D) = −(k + 1) + 0.(10ⁿ − D).
    static func complement(_ digits: [UInt8]) -> [UInt8] {
        let zero = UInt8(ascii: "0")
        var result = digits.map { zero + 9 - ($0 - zero) }  // 99…9 − D
        var k = result.count - 1
        while k >= 0 {  // + 1
            if result[k] == zero + 9 {
                result[k] = zero
                k -= 1
            } else {
                result[k] += 1
                break
            }
        }
        return result
    }

    // MARK: - Calendar (proleptic Gregorian, H. Hinnant's days_from_civil / civil_from_days)

    static func daysFromCivil(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS` (UTC) for `unix` seconds since 1970-01-01, digits in place: the one
    /// calendar writer behind `$date` texts and event timestamps. `unix` must fall in years 0000–9999.
    static func appendDateTime(unixSeconds unix: Int64, to out: inout [UInt8]) {
        let days = floorDivide(unix, 86_400)
        let secondOfDay = unix - days * 86_400
        let (year, month, day) = civilFromDays(days)
        appendDigits(year, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(day, width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendDigits(secondOfDay / 3600, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, width: 2, to: &out)
    }

    /// Appends `value` (0 ≤ value < 10^width) as exactly `width` decimal digits.
    static func appendDigits(_ value: Int64, width: Int, to out: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
