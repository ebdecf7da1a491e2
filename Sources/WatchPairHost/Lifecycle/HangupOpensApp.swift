import ServiceLifecycle
import UnixSignals
import WatchPairCore

/// SIGHUP opens the app: `systemctl reload` of a running service (`ExecReload=kill -HUP $MAINPID`) is
/// the user opening it, as `wcctl open` is. A background launch moves to the foreground
/// (``PairEngine/open()``); an app already in the foreground stays as it is. `systemctl start` cannot be
/// that gesture: systemd does nothing for a unit that is already active.
struct HangupOpensApp: Service {
    let engine: PairEngine

    func run() async {
        // Trapping replaces SIGHUP's default action (terminate) for the whole process.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        for await _ in hangups.cancelOnGracefulShutdown() {
            await engine.open()
        }
    }
}
