import ExampleConsole
import WatchConnection

extension Console {
    /// Prints `failed {request, code, error}`: a request that ended without its response.
    public static func failure(_ requestType: String, _ error: any Error) {
        let code = (error as? WatchConnectionError)?.code ?? 7001
        report("failed", ["request": requestType, "code": code, "error": "\(error)"])
    }
}
