/// The version and commit of this build, the same for every binary (`--version`).
///
/// Both come from `BuildInfo.swift`, which `Plugins/BuildInfoPlugin` generates before each build from
/// the package's `VERSION` file and `git rev-parse HEAD` (README, "Versions").
public enum WatchPairVersion {
    /// The release version, e.g. `0.2.0` (the `VERSION` file).
    public static let version = BuildInfo.version
    /// The commit built, e.g. `193a2b0c1d2e` (`-dirty` when the tree had changes; `unknown` outside git).
    public static let commit = BuildInfo.commit

    /// The one `--version` line: `<name> <version> (commit <commit>)`, e.g. `wcctl 0.2.0 (commit 193a2b0c1d2e)`.
    public static func line(name: String) -> String {
        "\(name) \(version) (commit \(commit))"
    }
}
