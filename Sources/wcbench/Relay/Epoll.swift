import Glibc

/// One epoll instance, level-triggered, waiting for input on a few descriptors: the relay floor's
/// event loop.
///
/// Glibc's Swift module leaves out `<sys/epoll.h>`, and wcbench has no C target (the module that wraps
/// epoll, NIO's `CNIOLinux`, is NIO's internals). So the three calls are looked up by name in the C
/// library with `dlsym`, under their C signatures, and `struct epoll_event` is laid out by hand: glibc
/// packs it to 12 bytes on x86_64, elsewhere it is 16 (the 64-bit `data` aligned to 8).
final class Epoll {
    /// At most this many descriptors are reported per wait (the relays watch one or two).
    static let capacity = 8

    private typealias CreateFunction = @convention(c) (Int32) -> Int32
    private typealias ControlFunction = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias WaitFunction = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    #if arch(x86_64)
    private static let eventSize = 12
    private static let dataOffset = 4
    #else
    private static let eventSize = 16
    private static let dataOffset = 8
    #endif
    // <sys/epoll.h>: EPOLL_CTL_ADD, EPOLLIN, and EPOLL_CLOEXEC (which is O_CLOEXEC).
    private static let controlAdd: Int32 = 1
    private static let input: UInt32 = 0x001

    private let descriptor: Int32
    private let control: ControlFunction
    private let waitCall: WaitFunction
    private let events: UnsafeMutableRawPointer

    /// `epoll_create1(EPOLL_CLOEXEC)`.
    init() throws(BenchError) {
        guard let library = dlopen(nil, RTLD_NOW),
            let create = dlsym(library, "epoll_create1"),
            let control = dlsym(library, "epoll_ctl"),
            let wait = dlsym(library, "epoll_wait")
        else { throw BenchError("epoll_create1, epoll_ctl or epoll_wait not found in the C library") }
        let descriptor = unsafeBitCast(create, to: CreateFunction.self)(O_CLOEXEC)
        guard descriptor >= 0 else { throw BenchError.system("epoll_create1()", errno: errno) }
        self.descriptor = descriptor
        self.control = unsafeBitCast(control, to: ControlFunction.self)
        self.waitCall = unsafeBitCast(wait, to: WaitFunction.self)
        events = UnsafeMutableRawPointer.allocate(byteCount: Self.capacity * Self.eventSize, alignment: 8)
    }

    /// Watches `fd` for input (level-triggered: it is reported on every wait while unread bytes remain).
    func addInput(_ fd: Int32) throws(BenchError) {
        var event = [UInt8](repeating: 0, count: Self.eventSize)
        event.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: Self.input, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt64(UInt32(bitPattern: fd)), toByteOffset: Self.dataOffset, as: UInt64.self)
        }
        let rc = event.withUnsafeMutableBytes { control(descriptor, Self.controlAdd, fd, $0.baseAddress) }
        guard rc == 0 else { throw BenchError.system("epoll_ctl(ADD, \(fd))", errno: errno) }
    }

    /// Blocks until at least one watched descriptor is readable (or hung up, or failed: a read then tells
    /// which) and returns how many are ready; ``ready(_:)`` gives each.
    func wait() throws(BenchError) -> Int {
        while true {
            let count = waitCall(descriptor, events, Int32(Self.capacity), -1)
            if count >= 0 { return Int(count) }
            if errno != EINTR { throw BenchError.system("epoll_wait()", errno: errno) }
        }
    }

    /// The descriptor of the `index`th event of the last ``wait()``.
    func ready(_ index: Int) -> Int32 {
        let data = events.loadUnaligned(fromByteOffset: index * Self.eventSize + Self.dataOffset, as: UInt64.self)
        return Int32(truncatingIfNeeded: data)
    }

    deinit {
        events.deallocate()
        close(descriptor)
    }
}
