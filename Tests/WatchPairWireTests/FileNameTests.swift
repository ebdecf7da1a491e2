import Testing
import WatchPairWire

@Suite struct FileNameTests {
    @Test(arguments: ["a", "run 1.fit", "...", ".hidden", "é", String(repeating: "x", count: 255), "日本.txt"])
    func accepted(name: String) {
        #expect(FileName.isValid(name))
    }

    /// Each of these would be empty, leave the receiver's directory, or be cut by the C string APIs.
    @Test(arguments: ["", ".", "..", "/", "a/b", "/etc/passwd", "../x", "a\u{0}", String(repeating: "x", count: 256),
                      String(repeating: "é", count: 128)])
    func refused(name: String) {
        #expect(!FileName.isValid(name))
    }
}
