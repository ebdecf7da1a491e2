import Testing

@testable import Systemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ProcessStateTests {
    @Suite struct ListenFileDescriptorsTests {
        static let variables = ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"]

        /// One socket-activation set-up: the `LISTEN_FDNAMES` given (nil: unset), whether the passed
        /// socket listens, and what `fd(named: "phoned")` must return.
        struct Case: Sendable, CustomTestStringConvertible {
            var fdNames: String?
            var listening: Bool
            var expectedName: String
            var expectedFD: Int32?
            var testDescription: String { "LISTEN_FDNAMES=\(self.fdNames ?? "<unset>") listening=\(self.listening)" }
        }

        @Test(arguments: [
            Case(fdNames: "phoned", listening: true, expectedName: "phoned", expectedFD: 3),
            Case(fdNames: nil, listening: true, expectedName: "unknown", expectedFD: 3),
            Case(fdNames: "phoned.socket", listening: true, expectedName: "phoned.socket", expectedFD: 3),
            Case(fdNames: "control", listening: true, expectedName: "control", expectedFD: nil),
            Case(fdNames: "phoned", listening: false, expectedName: "phoned", expectedFD: nil),
        ])
        func findsPassedSocketByName(_ testCase: Case) throws {
            let directory = try TemporaryDirectory()
            let environment = EnvironmentSnapshot(Self.variables)
            defer {
                environment.restore()
                directory.remove()
            }
            let socketFD = try makeUnixSocket(
                type: Int32(SOCK_STREAM.rawValue), path: "\(directory.path)/phoned.sock", listen: testCase.listening
            )
            defer { close(socketFD) }

            try withFD3(socketFD) {
                setenv("LISTEN_FDS", "1", 1)
                setenv("LISTEN_PID", String(getpid()), 1)
                if let names = testCase.fdNames { setenv("LISTEN_FDNAMES", names, 1) } else { unsetenv("LISTEN_FDNAMES") }

                let passed = try ListenFileDescriptors.fromEnvironment()
                #expect(passed.all.map(\.name) == [testCase.expectedName])
                #expect(passed.all.map(\.fd) == [3])
                #expect(passed.fd(named: "phoned") == testCase.expectedFD)
                #expect(passed.fd(named: "watchd") == (testCase.fdNames == "phoned" ? nil : testCase.expectedFD))
                for name in Self.variables { #expect(getenv(name) == nil, "\(name) should be unset") }
                #expect(try ListenFileDescriptors.fromEnvironment().isEmpty)
            }
        }

        @Test func emptyOutsideSocketActivation() throws {
            let environment = EnvironmentSnapshot(Self.variables)
            defer { environment.restore() }
            for name in Self.variables { unsetenv(name) }
            #expect(try ListenFileDescriptors.fromEnvironment().isEmpty)
        }

        @Test func emptyWhenPassedToAnotherProcess() throws {
            let environment = EnvironmentSnapshot(Self.variables)
            defer { environment.restore() }
            setenv("LISTEN_FDS", "1", 1)
            setenv("LISTEN_PID", String(getpid() + 1), 1)
            #expect(try ListenFileDescriptors.fromEnvironment().isEmpty)
        }

        @Test func malformedCountThrowsWithErrno() {
            let environment = EnvironmentSnapshot(Self.variables)
            defer { environment.restore() }
            setenv("LISTEN_FDS", "many", 1)
            setenv("LISTEN_PID", String(getpid()), 1)
            #expect(throws: SystemdError(operation: "sd_listen_fds_with_names", errno: EINVAL)) {
                try ListenFileDescriptors.fromEnvironment()
            }
        }

        @Test func explicitListIsKeptInOrder() {
            let passed = ListenFileDescriptors([(name: "a", fd: 3), (name: "b", fd: 4)])
            #expect(passed.all.map(\.name) == ["a", "b"])
            #expect(passed.fd(named: "c") == nil)
        }
    }
}
