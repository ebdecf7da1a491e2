import Foundation
import Logging
import Systemd
import Testing
import WatchPairCore
import WatchPairTesting
@testable import WatchPairTransport
import WatchPairWire

@testable import WatchPairHost

/// The one host (WatchPairHost) apart from the daemons' control operations: the link listener and
/// launch mode, the app configuration loader, and a host on an in-memory link.
@Suite("WatchPairHost")
struct HostTests {
    let logger = Logger(label: "HostTests")

    /// A listening socket in `directory`, with `pending` clients connected but not accepted.
    func listener(in directory: TemporaryDirectory, pending: Int) throws -> (ListeningSocket, [Int32]) {
        let socket = try ListeningSocket.bind(path: directory.path + "/l.sock", mode: 0o600, logger: logger)
        var clients: [Int32] = []
        for _ in 0..<pending {
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            let result = UnixSocketAddress(path: socket.path)!.withSockaddr { Glibc.connect(fd, $0, $1) }
            #expect(result == 0)
            clients.append(fd)
        }
        return (socket, clients)
    }

    static let launchTable: [(setting: HostConfiguration.LaunchSetting, adopted: Bool, pending: Int, expected: LaunchMode)] = [
        (.auto, true, 1, .background),  // socket-activated by a peer that is waiting: background launch
        (.auto, true, 0, .foreground),  // socket-activated with nobody waiting (a user started it)
        (.auto, false, 1, .foreground),  // self-bound: never a background launch
        (.foreground, true, 1, .foreground),
        (.background, false, 0, .background),
    ]

    @Test("launch mode: configured, else background only when adopted with a connection waiting", arguments: 0..<launchTable.count)
    func launchMode(_ row: Int) throws {
        let (setting, adopted, pending, expected) = Self.launchTable[row]
        let directory = try TemporaryDirectory()
        let (socket, clients) = try listener(in: directory, pending: pending)
        defer {
            for fd in clients { close(fd) }
            socket.removeOwnedFile()
            close(socket.descriptor)
        }
        let link = LinkListener(descriptor: socket.descriptor, adopted: adopted, owned: nil)
        #expect(link.launchMode(setting) == expected)
    }

    @Test("the link listener adopts the fd named listenFDName, else binds paths.link and removes it on release")
    func adoptOrBind() throws {
        let directory = try TemporaryDirectory()
        var configuration = HostConfiguration(role: .phone)
        configuration.paths.link = directory.path + "/phoned.sock"
        let (socket, _) = try listener(in: directory, pending: 0)
        defer {
            socket.removeOwnedFile()
            close(socket.descriptor)
        }
        let adopted = try LinkListener.open(
            configuration, passed: ListenFileDescriptors([(name: "phoned", fd: socket.descriptor)]), logger: logger)
        #expect(adopted.adopted && adopted.descriptor == socket.descriptor)
        adopted.release()  // systemd's: left open
        #expect(fcntl(socket.descriptor, F_GETFD) >= 0)

        let bound = try LinkListener.open(
            configuration, passed: ListenFileDescriptors([(name: "other", fd: socket.descriptor)]), logger: logger)
        #expect(!bound.adopted)
        #expect(FileManager.default.fileExists(atPath: configuration.paths.link))
        bound.release()
        #expect(!FileManager.default.fileExists(atPath: configuration.paths.link))
    }

    @Test("an app's role: WATCHPAIR_ROLE, else the file's, else phone; aliases and the run directory fill the paths")
    func appConfiguration() async throws {
        let none = "/nonexistent/watchpair"
        #expect(try await HostConfiguration.loadApp(environment: [:], defaultFileDirectory: none).configuration.role == .phone)
        let file = try TemporaryFile(#"{"role": "watch", "pairId": "f"}"#)
        let fromFile = try await HostConfiguration.loadApp(environment: ["WATCHPAIR_CONFIG": file.path], defaultFileDirectory: none)
        #expect(fromFile.configuration.role == .watch)
        #expect(fromFile.configuration.pairId == "f")
        let loaded = try await HostConfiguration.loadApp(
            environment: [
                "WATCHPAIR_ROLE": "watch", "WATCHPAIR_RUN_DIR": "/r", "WATCHPAIR_PATHS_CONTROL": "/own.ctl",
                "WATCHPAIR_PATHS_STATE": "/long", "WATCHPAIR_STATE_DIR": "/short",
            ],
            defaultFileDirectory: none)
        let paths = loaded.configuration.paths
        #expect(paths.link == "/r/watchd.sock")
        #expect(paths.peerLink == "/r/phoned.sock")
        #expect(paths.control == "/own.ctl")  // a socket's own variable wins over the run directory
        #expect(paths.peerControl == "/r/phoned.ctl")
        #expect(paths.state == "/short")  // the short alias wins over the key's variable
        #expect(loaded.warnings.isEmpty)
        let error = await #expect(throws: ConfigurationError.self) {
            try await HostConfiguration.loadApp(environment: ["WATCHPAIR_ROLE": "tablet"], defaultFileDirectory: none)
        }
        #expect(error?.key == "role")
    }

    /// A host of the phone on `network`, with every path in `directory`, launched in the background.
    func inMemoryHost(_ directory: TemporaryDirectory, _ network: InMemoryNetwork, exitsWhenIdle: Bool) async throws -> PairHost {
        var configuration = HostConfiguration(role: .phone)
        configuration.paths = HostConfiguration.Paths(
            link: directory.path + "/phoned.sock", peerLink: directory.path + "/watchd.sock",
            control: directory.path + "/phoned.ctl", peerControl: directory.path + "/watchd.ctl", state: directory.path + "/state")
        configuration.durability = .process
        configuration.launch = .background
        return try await buildHost(
            configuration: configuration, logger: logger,
            environment: HostEnvironment(
                clock: ManualClock(), notifier: SystemdNotifications(isEnabled: false) { _ in }, eventWriter: .discard,
                transport: network.transport(for: .phone), exitsWhenIdle: exitsWhenIdle)
        ) { ControlRouter.statusOnly(context: $0) }
    }

    @Test("a host on an in-memory link binds no socket, runs, and stops on shutdown")
    func inMemoryHost() async throws {
        let directory = try TemporaryDirectory()
        let network = InMemoryNetwork()
        let host = try await inMemoryHost(directory, network, exitsWhenIdle: false)
        #expect(host.launch == .background)
        let running = Task { try await host.run(handlingSignals: false) }
        await network.waitForServing(.phone)
        #expect(!FileManager.default.fileExists(atPath: host.configuration.paths.link))
        #expect(!FileManager.default.fileExists(atPath: host.configuration.paths.control))
        await host.shutdown()
        try await running.value
        #expect(!network.isServing(.phone))
    }

    @Test("the idle exit runs only for hosts that exit when idle (the daemons, not an app)", arguments: [false, true])
    func idleExitService(exitsWhenIdle: Bool) async throws {
        let directory = try TemporaryDirectory()
        let host = try await inMemoryHost(directory, InMemoryNetwork(), exitsWhenIdle: exitsWhenIdle)
        let names = host.makeServices(host).map(\.serviceName)
        #expect(names.contains("idle-exit") == exitsWhenIdle)
        #expect(!names.contains("control"))  // no control socket on an in-memory link
        await host.release()
    }
}
