import Foundation
import Testing
import WatchPairTesting
import WatchPairWire

/// Writes the seed corpus of the fuzz targets, `Fuzz/Corpus/<target>/` (docs/Fuzzing.md), from the golden
/// tables of these tests and the JSON lines written in every test and document, so the fuzzers start
/// from the inputs the tests already know are interesting. Skipped unless asked:
/// `WATCHPAIR_WRITE_FUZZ_CORPUS=1 swift test --filter FuzzCorpusWriter`.
///
/// Each target's directory is rewritten whole (the corpus is generated; nothing in it is kept by hand).
/// Inputs over 4 KiB are left out: libFuzzer's input size limit follows the largest seed.
@Suite struct FuzzCorpusWriter {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let maxSeedSize = 4096

    @Test(.enabled(if: ProcessInfo.processInfo.environment["WATCHPAIR_WRITE_FUZZ_CORPUS"] == "1"))
    func write() throws {
        let literals = try Self.jsonLiterals()
        let controlLines = ControlCodecTests.requests.map(\.line) + literals.filter { $0.contains(#""op""#) }

        var generator = PlistGenerator(rng: TestRandom(seed: 24))
        let frames = FrameRoundTripTests.frames + (0..<16).map { _ in generator.frame() }
        let encodedFrames = frames.map(FrameEncoder.encode)
        let values: [PlistValue] = PlistCodecTests.values
            + (EncodedDictionaryTests.dictionaries + PlistJSONTextTests.payloads).map(PlistValue.dictionary)
            + (0..<16).map { _ in generator.value(depth: 4) }
        let valueTexts = values.map(\.json.canonicalText)

        try Self.write("frame-stream", encodedFrames + [encodedFrames.filter { $0.count < 64 }.prefix(6).flatMap { $0 }])
        try Self.write("frame-body", encodedFrames.map { Array($0[4..<($0.count - 4)]) })
        try Self.write("plist", values.map(PlistCodec.encode))
        try Self.write("json", (JSONValueTests.parsed.map(\.0) + JSONValueTests.rejected + literals + valueTexts).map(Self.utf8))
        try Self.write("plist-json", (literals.filter { !$0.contains(#""op""#) } + valueTexts).map(Self.utf8))
        try Self.write("date", (PlistJSONTests.dateTexts.map(\.1) + Self.dateLiterals()).map(Self.utf8))
        try Self.write("control-request", controlLines.map(Self.utf8))
    }

    static func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Replaces `Fuzz/Corpus/<target>/` with `seeds` (duplicates and those over the size limit left out).
    /// The same seeds give the same files, so regenerating an unchanged corpus changes nothing.
    static func write(_ target: String, _ seeds: [[UInt8]]) throws {
        let directory = repository.appendingPathComponent("Fuzz/Corpus/\(target)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var seen: Set<[UInt8]> = []
        for seed in seeds where seed.count <= maxSeedSize && seen.insert(seed).inserted {
            // Named by content, so a new seed adds a file and renames none.
            let name = String(CRC32C.checksum(seed), radix: 16).leftPadding(to: 8)
            try Data(seed).write(to: directory.appendingPathComponent("\(target)-\(name)"))
        }
        #expect(seen.count > 5, "only \(seen.count) seeds for \(target)")
    }

    /// JSON written as it is in the tests (`#"{…}"#` raw strings) and the documents (`` `{"…}` `` and
    /// `'{"…}'`): lines the tests feed the parsers, malformed ones included, and requests from the docs.
    static func jsonLiterals() throws -> [String] {
        let rawString = try Regex(##"#"([\[{].*?)"#"##)
        let quoted = try Regex(#"[`']+(\{"[^`']*)[`']"#)
        var literals: [String] = []
        for (directory, fileExtension, pattern) in [("Tests", "swift", rawString), ("docs", "md", quoted)] {
            for file in try sourceFiles(under: directory, fileExtension: fileExtension) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in text.matches(of: pattern) {
                    guard let captured = match.output[1].substring else { continue }
                    let literal = String(captured)
                    if !literal.contains(##"\#("##) { literals.append(literal) }  // no interpolations
                }
            }
        }
        return literals
    }

    /// The date texts the tests use (`"2024-05-01T12:00:00Z"`), valid and not.
    static func dateLiterals() throws -> [String] {
        let date = try Regex(#""(\d{4}-\d{2}-\d{2}[Tt ][^"\\]*)""#)
        var texts: [String] = []
        for file in try sourceFiles(under: "Tests", fileExtension: "swift") {
            let text = try String(contentsOf: file, encoding: .utf8)
            texts += text.matches(of: date).compactMap { $0.output[1].substring.map(String.init) }
        }
        return texts
    }

    /// Files under `directory` of the repository with `fileExtension`, sorted so the corpus is the same on
    /// every machine.
    static func sourceFiles(under directory: String, fileExtension: String) throws -> [URL] {
        let root = repository.appendingPathComponent(directory)
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted()
        return paths.filter { $0.hasSuffix("." + fileExtension) }.map { root.appendingPathComponent($0) }
    }
}

extension String {
    fileprivate func leftPadding(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
