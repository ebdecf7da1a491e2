import Foundation
import PackagePlugin

/// Generates `BuildInfo.swift` for the target it is applied to: the version from the package's
/// `VERSION` file and the commit from `git rev-parse` (README, "Versions").
///
/// A prebuild command, so it runs before every build and a new commit is picked up without a clean
/// build; `scripts/build/build-info.sh` rewrites the file only when its content changes, so an
/// unchanged commit recompiles nothing.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo")
        let package = context.package.directoryURL
        return [
            .prebuildCommand(
                displayName: "Generating BuildInfo.swift (VERSION, git commit)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [package.appending(path: "scripts/build/build-info.sh").path, package.path, output.path],
                outputFilesDirectory: output)
        ]
    }
}
