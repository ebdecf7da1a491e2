import FuzzSupport
import WatchPairDaemon
import WatchPairWire

/// One control line as the daemons read it (`DaemonOperations.read`: the envelope, then the operation's
/// own request type straight from the bytes), checked against the JSON tree of the same line.
///
/// Properties: a line the daemons accept is JSON (a tree parses it); it reads the same again from its
/// canonical form; and every object-valued field reads as the same property-list dictionary (or fails)
/// with the tree-free reader as with the tree's conversion.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlRequest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(start, count)
    let tree = try? JSONValue.parse(utf8: input)
    if case .object(let fields) = tree {
        for (_, value) in fields {
            guard case .object = value else { continue }
            var reader = JSONReader(value.canonicalUTF8)
            let streamed = Result { () throws(WCFailure) in try PlistValue.readDictionary(&reader, name: "f") }
            let converted = Result { () throws(WCFailure) in try PlistJSON.dictionary(fromJSON: value, name: "f") }
            switch (streamed, converted) {
            case (.success(let a), .success(let b)):
                // Compared as JSON, where a NaN equals itself.
                check(PlistValue.dictionary(a).json == PlistValue.dictionary(b).json, "\(value.canonicalText) reads as \(a) without a tree, \(b) with one")
            case (.failure, .failure):
                // Which of two bad members is named first differs (document order, hash order): only both fail.
                break
            default: check(false, "\(value.canonicalText): \(streamed) without a tree, \(converted) with one")
            }
        }
    }
    guard case .success(let id) = DaemonOperations.read(input) else { return 0 }
    guard let tree else {
        check(false, "accepted a line that is not JSON: \(String(decoding: input, as: UTF8.self))")
        return 0
    }
    let again = DaemonOperations.read(tree.canonicalUTF8)
    check(again == .success(id), "\(tree.canonicalText) reads as \(again), not as request \(id)")
    return 0
}
