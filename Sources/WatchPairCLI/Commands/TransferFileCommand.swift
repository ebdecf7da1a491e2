import ArgumentParser
import Glibc
import WatchPairWire

/// `wcctl transfer-file PATH [--metadata JSON|@FILE|-] [--wait]`: `transferFile(_:metadata:)`.
struct TransferFileCommand: WcctlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "transfer-file",
        abstract: "Queue a file transfer (transferFile) and print its id.",
        discussion: """
            Returns once the daemon holds its own durable copy of the file (you may delete
            yours then); the other app gets it exactly once, whole and verified, in order
            among files, resumed after crashes of either side. The daemon reads PATH as its
            own user: under systemd (PrivateTmp, ProtectHome) use a path it can see, such
            as one under /srv or /var/lib, readable by the watchpair user. Received files
            land in the files/ directory of the other app (`wcctl --side watch files`).

            Prints the transfer id; --json prints {"acknowledged":0,"fileName":…,
            "isTransferring":true,"seq":n,"size":…,"transferId":"…",…}.

            --wait then waits until the other app holds the file: a progress line on
            standard error (rewritten in place on a terminal, one line per 10% otherwise),
            exit 0 when it arrived verified, 114 (7014) when it arrived corrupt, 1 when it
            was cancelled. Interrupting the wait leaves the transfer queued. Without
            --wait, `wcctl wait drained` waits for every outstanding file too.

            Errors: 108 (7008) missing or unreadable file, naming it; 110 (7010) metadata
            that is not a property list; 109 (7009) metadata over 64 KiB; 115 (7015) the
            file queue or the disk is full. Nothing is queued then.

            EXAMPLE
              wcctl transfer-file ./ride.fit --metadata '{"kind":"workout"}' --wait
              wcctl --side watch files
            """
    )

    @ParentCommand var root: Wcctl

    @Argument(help: ArgumentHelp("The file to transfer.", valueName: "path"))
    var path: String

    @Option(help: ArgumentHelp("The file's metadata: a JSON object, @FILE or - (standard input).", valueName: "json"))
    var metadata: String?

    @Flag(help: "Wait until the other app holds the file, showing its progress.")
    var wait = false

    func execute(_ context: CommandContext) throws(CLIError) {
        let payload = try metadata.map { text throws(CLIError) in try context.dictionaryArgument(text, what: "metadata") }
        let client = try context.connect()
        var request = client.makeRequest("transferFile")
        request.set("path", Self.absolute(path))
        request.set("metadata", payload)
        guard wait else {
            let result = try client.call(request, wait: Payload.requestWait)
            try show(result, context)
            return
        }
        request.set("follow", true)
        try client.send(request)
        try follow(request.id, client, context)
    }

    /// Reads the stream of a `transferFile` with `follow`: the acceptance, progress, then how it ended.
    private func follow(_ id: Int64, _ client: ControlClient, _ context: CommandContext) throws(CLIError) {
        let interrupt = try context.environment.interruptDescriptor()
        var display: FileProgressDisplay?
        while let response = try client.next(deadline: nil, interruptDescriptor: interrupt) {
            guard response.id == id else { continue }
            guard let kind = response.event else {
                let accepted = try ControlClient.result(of: response)
                try show(accepted, context)
                display = FileProgressDisplay(
                    terminal: context.streams.errorIsTerminal, fileName: accepted[field: "fileName"]?.stringValue ?? path,
                    size: accepted[field: "size"]?.unsignedValue ?? 0)
                continue
            }
            let data = response.data ?? .object([:])
            if context.json { try context.printJSON(.object(["event": .string(kind), "data": data])) }
            switch kind {
            case "progress":
                if let text = display?.update(acknowledged: data[field: "acknowledged"]?.unsignedValue ?? 0) {
                    context.streams.writeErr(text)
                }
            case "finished":
                if let text = display?.update(acknowledged: data[field: "size"]?.unsignedValue ?? 0) { context.streams.writeErr(text) }
                context.streams.writeErr(display?.finish ?? "")
                return
            case "failed":
                context.streams.writeErr(display?.finish ?? "")
                let code = Int(data[field: "code"]?.integerValue ?? Int64(WCErrorCode.genericError.rawValue))
                let name = data[field: "name"]?.stringValue ?? "genericError"
                throw CLIError(.wcError(code: code, name: name), data[field: "message"]?.stringValue ?? "the file transfer failed")
            case "cancelled":
                context.streams.writeErr(display?.finish ?? "")
                throw CLIError(.failure, "file transfer \(data[field: "transferId"]?.stringValue ?? "") was cancelled")
            default:
                continue
            }
        }
        context.streams.writeErr(display?.finish ?? "")
        throw CLIError(.failure, "interrupted: the file transfer stays queued (`wcctl files` shows it)")
    }

    /// Prints the accepted transfer: its id, or the whole object with --json.
    private func show(_ result: JSONValue, _ context: CommandContext) throws(CLIError) {
        if context.json {
            try context.printJSON(result)
        } else {
            try context.print(result[field: "transferId"].map(OutputFormatter.humanValue) ?? "")
        }
    }

    /// `path` made absolute against the working directory: the daemon resolves nothing itself.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return directory == "/" ? "/" + path : directory + "/" + path
    }
}
