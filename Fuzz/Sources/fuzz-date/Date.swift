import Foundation
import FuzzSupport
import WatchPairWire

/// The `$date` convention's text (`ISO8601Timestamp.parse`, through `PlistValue(json:)`): the input is
/// the member's string value.
///
/// Properties: a date read from text is written (as text, or as a number where text cannot be exact)
/// so that it reads back to the same bits (NaN payloads and -0.0 aside, as documented); both writers
/// write it alike.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDate(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(start, count)
    guard let text = String(validating: input, as: UTF8.self),
        case .date(let date)? = try? PlistValue(json: .object(["$date": .string(text)]))
    else { return 0 }
    checkJSONTrip(.date(date))
    return 0
}
