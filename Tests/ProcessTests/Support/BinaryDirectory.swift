import Foundation

/// Where the real `phoned`, `watchd` and `wcctl` executables are: the build directory.
///
/// `$WATCHPAIR_BIN_DIR` when set; else the directory of the running test executable (`/proc/self/exe`,
/// then `CommandLine.arguments[0]`), walking up out of an `.xctest` bundle, since SwiftPM puts the test
/// bundle next to the products it built (`.build/debug/`).
enum BinaryDirectory {
    /// The executables every test needs.
    static let required = ["phoned", "watchd", "wcctl"]

    /// The directory, or a sentence saying why none was found (the tests then fail with it).
    static let resolved: Result<String, LocatorError> = locate()

    /// The directory; throws ``LocatorError`` when the binaries are missing.
    static func path() throws -> String {
        try resolved.get()
    }

    /// Why the binaries were not found.
    struct LocatorError: Error, CustomStringConvertible {
        /// Where we looked and what was missing.
        var description: String
    }

    private static func locate() -> Result<String, LocatorError> {
        if let override = ProcessInfo.processInfo.environment["WATCHPAIR_BIN_DIR"], !override.isEmpty {
            return check(override, why: "WATCHPAIR_BIN_DIR")
        }
        var candidates: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(exe)
        }
        candidates.append(CommandLine.arguments[0])
        var tried: [String] = []
        for executable in candidates {
            var url = URL(fileURLWithPath: executable).standardizedFileURL.deletingLastPathComponent()
            // Inside WatchPairPackageTests.xctest/… (a bundle directory on some layouts): climb out of it.
            while url.path != "/" {
                tried.append(url.path)
                if case .success(let dir) = check(url.path, why: executable) { return .success(dir) }
                url.deleteLastPathComponent()
                if !executable.contains(".xctest") { break }
            }
        }
        return .failure(LocatorError(description: "phoned/watchd/wcctl not found in \(tried); build them first (swift build) or set WATCHPAIR_BIN_DIR"))
    }

    private static func check(_ directory: String, why: String) -> Result<String, LocatorError> {
        let missing = required.filter { !FileManager.default.isExecutableFile(atPath: directory + "/" + $0) }
        guard missing.isEmpty else {
            return .failure(LocatorError(description: "\(missing) not executable in \(directory) (from \(why))"))
        }
        return .success(directory)
    }
}
