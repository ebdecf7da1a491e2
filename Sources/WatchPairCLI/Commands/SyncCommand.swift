import ArgumentParser
import WatchPairWire

/// `wcctl sync set|get|list|now`: the app's keyed sync (docs/KeyedSync.md), for scripts.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Set, show and send the app's synced keys (keyed sync).",
        discussion: """
            Each app keeps keys that sync to the other with the launch-order-safe
            handshake: either app may start first, or run while the other is off, and
            the watch ends with the phone's newest values (docs/KeyedSync.md). Every
            change raises the key's revision (3@phone: the third change, written by
            the phone); an older value never overrides a newer one, and a value set
            back to an earlier one still syncs. The ledger is in the app's state
            directory (keyedsync.json) and survives restarts and kill -9.

            WHEN A VALUE GOES
              automaticSmall (default)  at once, while its JSON is at most 16 KiB
              manual                    with `wcctl sync now`
              never                     never
              phoneOnly, watchOnly      never (the key stays in its app)
              phoneWithWatchSync        phone to watch only

            IS IT THERE YET?
              The sender's `sync get` shows needSync: false once the peer confirmed
              the revision (and lastSyncTime); the receiver's shows the revision it
              holds. A key the receiver never registered is kept and shows
              registered: false. A value not sent says why in notSent.

            EVENTS (journald WC_EVENT, and `wcctl events --event NAME`)
              syncSent, syncConfirmed, syncReceived, syncRequested (the handshake),
              syncNotSent (why), syncIgnored (an older revision arrived late),
              syncUnknownKey, syncFailed; WC_SYNC_KEY and WC_SYNC_REVISION.

            EXIT STATUS
              0 done; 2 usage; 3 the app's daemon is not running; 108 (7008) a bad
              value, availability or policy, or a key `sync get` does not know.

            EXAMPLE
              wcctl sync set theme '"dark"'
              wcctl --side watch sync get theme | jq .value
              wcctl sync list
              wcctl --side watch events --event syncIgnored
            """,
        subcommands: [Set.self, Get.self, List.self, Now.self]
    )

    /// `wcctl sync set KEY JSON [--availability A] [--policy P]`.
    struct Set: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a key's value (any JSON); registers the key the first time.",
            discussion: """
                Prints the key's state after the change, one JSON object: key, value,
                revision (e.g. 3@phone), needSync, lastSyncTime, availability, policy, and
                notSent (why the value is not sent) when it is not.

                A new key is registered with --availability (all, phoneOnly, watchOnly,
                phoneWithWatchSync; default all) and --policy (automaticSmall, manual,
                never; default automaticSmall); naming either later changes it. An
                automaticSmall key is sent at once while its JSON is at most 16 KiB; a
                manual one with `wcctl sync now`.

                EXAMPLE
                  wcctl sync set profile '{"name":"Ada"}' --availability phoneWithWatchSync
                  wcctl sync set settings @settings.json --policy manual
                """
        )

        @ParentCommand var root: Wcctl

        @Argument(help: ArgumentHelp("The key.", valueName: "key"))
        var key: String

        @Argument(help: ArgumentHelp("The value: JSON, @FILE or - (standard input).", valueName: "json"))
        var value: String

        @Option(help: ArgumentHelp("Which app holds the key and which way it crosses.", valueName: "availability"))
        var availability: String?

        @Option(help: ArgumentHelp("When the key's changes are sent.", valueName: "policy"))
        var policy: String?

        func execute(_ context: CommandContext) throws(CLIError) {
            let text = try context.jsonText(value)
            let parsed: JSONValue
            do throws(WCFailure) {
                parsed = try JSONValue.parse(text)
            } catch {
                throw CLIError(WCFailure(.invalidParameter, "value: \(error.message)"))
            }
            let client = try context.connect()
            var request = client.makeRequest("syncSet")
            request.set("key", key)
            request.set("value", parsed)
            request.set("availability", availability)
            request.set("policy", policy)
            try context.printJSON(try client.call(request, wait: Payload.requestWait))
        }
    }

    /// `wcctl sync get KEY`.
    struct Get: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Show a key's value and state.",
            discussion: """
                One JSON object, as `sync set` prints it; a key the peer sent that this app
                has not registered shows registered: false. Exit 108 (error 7008)
                for a key this app knows nothing of.

                EXAMPLE
                  wcctl --side watch sync get theme | jq -r .value
                """
        )

        @ParentCommand var root: Wcctl

        @Argument(help: ArgumentHelp("The key.", valueName: "key"))
        var key: String

        func execute(_ context: CommandContext) throws(CLIError) {
            let client = try context.connect()
            var request = client.makeRequest("syncGet")
            request.set("key", key)
            try context.printJSON(try client.call(request, wait: Payload.requestWait))
        }
    }

    /// `wcctl sync list`.
    struct List: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List every key: revision, last sync, needSync, and why one is not sent.",
            discussion: """
                One JSON object per key and line, by key, as `sync set` prints them.

                EXAMPLE
                  wcctl sync list | jq -c '{key, revision, needSync, notSent}'
                """
        )

        @ParentCommand var root: Wcctl

        func execute(_ context: CommandContext) throws(CLIError) {
            let client = try context.connect()
            let result = try client.call(client.makeRequest("syncList"), wait: Payload.requestWait)
            try SyncCommand.printKeys(result, context)
        }
    }

    /// `wcctl sync now`.
    struct Now: WcctlSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "now",
            abstract: "Send the keys that need a sync (manual ones too); the watch also asks for the phone's.",
            discussion: """
                Returns once the peer confirmed (or the attempt failed: a syncFailed event
                says why; the keys keep needSync and are sent again when the peer is next
                reachable), then lists the keys as `sync list` does.

                EXAMPLE
                  wcctl sync now
                """
        )

        @ParentCommand var root: Wcctl

        func execute(_ context: CommandContext) throws(CLIError) {
            let client = try context.connect()
            let result = try client.call(client.makeRequest("syncNow"), wait: Payload.requestWait)
            try SyncCommand.printKeys(result, context)
        }
    }

    /// The keys of a `syncList`/`syncNow` result, one line each (--json: the whole result).
    static func printKeys(_ result: JSONValue, _ context: CommandContext) throws(CLIError) {
        if context.json { return try context.printJSON(result) }
        for key in result[field: "keys"]?.arrayElements ?? [] { try context.printJSON(key) }
    }
}
