import Testing

@testable import WatchPairCLI

/// What `wcctl transfer-file --wait` writes to standard error, as tables.
@Suite("File progress display")
struct FileProgressDisplayTests {
    @Test("not a terminal: one line per tenth acknowledged, none in between")
    func plainLines() {
        var display = FileProgressDisplay(terminal: false, fileName: "a.bin", size: 1000)
        let shown = [0, 50, 99, 100, 150, 250, 990, 1000].compactMap { display.update(acknowledged: UInt64($0)) }
        #expect(shown == [
            "a.bin 10% (100 of 1000 bytes)\n", "a.bin 20% (250 of 1000 bytes)\n", "a.bin 90% (990 of 1000 bytes)\n",
            "a.bin 100% (1000 of 1000 bytes)\n",
        ])
        #expect(display.finish == "")
    }

    @Test("a terminal: every acknowledgement rewrites the line in place; a newline ends it")
    func terminal() {
        var display = FileProgressDisplay(terminal: true, fileName: "a.bin", size: 3 << 20)
        #expect(display.update(acknowledged: 0) == "\ra.bin    0%  0.0 of 3.0 MiB\u{1B}[K")
        #expect(display.update(acknowledged: 3 << 19) == "\ra.bin   50%  1.5 of 3.0 MiB\u{1B}[K")
        #expect(display.update(acknowledged: 3 << 20) == "\ra.bin  100%  3.0 of 3.0 MiB\u{1B}[K")
        #expect(display.finish == "\n")
    }

    @Test("an empty file is complete at once")
    func empty() {
        var display = FileProgressDisplay(terminal: false, fileName: "e", size: 0)
        #expect(display.update(acknowledged: 0) == "e 100% (0 of 0 bytes)\n")
    }
}

/// `transfer-file` and `files` parse as documented.
@Suite("File command arguments")
struct FileCommandArgumentTests {
    @Test func transferFile() throws {
        let parsed = try Wcctl.parseAsRoot(["--side", "phone", "transfer-file", "ride.fit", "--metadata", "@m.json", "--wait"])
        let command = try #require(parsed as? TransferFileCommand)
        #expect(command.path == "ride.fit" && command.metadata == "@m.json" && command.wait)
        let plain = try #require(try Wcctl.parseAsRoot(["transfer-file", "/a"]) as? TransferFileCommand)
        #expect(plain.metadata == nil && !plain.wait)
        #expect(throws: (any Error).self) { try Wcctl.parseAsRoot(["transfer-file"]) }
    }

    @Test func files() throws {
        #expect(try Wcctl.parseAsRoot(["files"]) is FilesCommand.List)
        let cancel = try #require(try Wcctl.parseAsRoot(["files", "cancel", "ID"]) as? FilesCommand.Cancel)
        #expect(cancel.transferId == "ID")
    }

    @Test func relativePathsAreMadeAbsolute() {
        #expect(TransferFileCommand.absolute("/x/y") == "/x/y")
        #expect(TransferFileCommand.absolute("y").hasSuffix("/y") && TransferFileCommand.absolute("y").hasPrefix("/"))
    }
}
