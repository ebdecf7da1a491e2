import Testing

import WatchConnectivityTesting

extension WCSessionPair {
    /// Makes the delegates the sessions' (the test keeps them: delegates are weak), activates the phone,
    /// then the watch, and waits until the phone sees the watch reachable.
    func activate(_ phoneDelegate: FullDelegate, _ watchDelegate: FullDelegate) async {
        phone.delegate = phoneDelegate
        watch.delegate = watchDelegate
        phone.activate()
        #expect(await phoneDelegate.next() == .activated(.activated, errorCode: nil))
        watch.activate()
        #expect(await watchDelegate.next() == .activated(.activated, errorCode: nil))
        #expect(await phoneDelegate.next() == .reachability(true))
    }
}
