import Testing

@testable import Systemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ProcessStateTests {
    @Suite struct ServiceNotifierTests {
        static let variables = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]

        @Test func sendsEachNotificationAsOneDatagram() throws {
            let directory = try TemporaryDirectory()
            let environment = EnvironmentSnapshot(Self.variables)
            defer {
                environment.restore()
                directory.remove()
            }
            let path = "\(directory.path)/notify"
            let receiver = try makeUnixSocket(type: Int32(SOCK_DGRAM.rawValue), path: path, listen: false)
            defer { close(receiver) }
            setenv("NOTIFY_SOCKET", path, 1)

            let notifier = ServiceNotifier()
            #expect(notifier.isEnabled)
            notifier.ready(status: "serving")
            #expect(receiveDatagram(receiver) == "READY=1\nSTATUS=serving")
            notifier.ready()
            #expect(receiveDatagram(receiver) == "READY=1")
            notifier.status("two\nlines")
            #expect(receiveDatagram(receiver) == "STATUS=two lines")
            notifier.watchdog()
            #expect(receiveDatagram(receiver) == "WATCHDOG=1")
            notifier.mainPID(4242)
            #expect(receiveDatagram(receiver) == "MAINPID=4242")
            notifier.stopping()
            #expect(receiveDatagram(receiver) == "STOPPING=1")
            #expect(getenv("NOTIFY_SOCKET") != nil, "sd_notify(0, …) must leave NOTIFY_SOCKET set")
        }

        @Test func disabledWithoutNotifySocket() {
            let environment = EnvironmentSnapshot(Self.variables)
            defer { environment.restore() }
            unsetenv("NOTIFY_SOCKET")
            let notifier = ServiceNotifier()
            #expect(!notifier.isEnabled)
            #expect(!notifier.notify("READY=1"))
            notifier.ready(status: "ignored")
        }

        @Test func watchdogIntervalFromEnvironment() {
            let environment = EnvironmentSnapshot(Self.variables)
            defer { environment.restore() }
            setenv("WATCHDOG_USEC", "2500000", 1)
            setenv("WATCHDOG_PID", String(getpid()), 1)
            #expect(ServiceNotifier().watchdogInterval == .microseconds(2_500_000))
            setenv("WATCHDOG_PID", String(getpid() + 1), 1)
            #expect(ServiceNotifier().watchdogInterval == nil)
            unsetenv("WATCHDOG_USEC")
            unsetenv("WATCHDOG_PID")
            #expect(ServiceNotifier().watchdogInterval == nil)
        }
    }
}
