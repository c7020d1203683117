import EventLoop
import GStreamer
import Logging
import PlayerCore

/// A playbin that deadlocks is replaced, never waited for.
///
/// GStreamer 1.22's playbin still deadlocks now and then in its switch to the next item (docs/platform.md,
/// "GStreamer behaviour", the deadlocks listed there), and the state change the loop asked for meanwhile then
/// never returned: the daemon stopped answering. Every state change, seek, query and volume change now runs on
/// the pipeline's own thread and is waited for `stateChangeLimit` at most (`Pipeline.within`). One that has not returned by then gives
/// that pipeline up (logged as an error) and a new one is built: at NULL if NULL was asked for, otherwise with
/// the loaded item started again where it was, playing or paused as the user last asked. The core's queue is
/// the core's, and the prepared next item stays prepared; items already handed to the old playbin are dropped
/// (the core loads them in their turn). A pipeline given up twice in a row before anything prerolled in the
/// new one fails the item instead, so a file that deadlocks every playbin cannot keep the loop replacing them.
/// Upstream: no issue found; not fixed as of GStreamer 1.29.2 (main, 2026-08) (docs/platform.md, "Workarounds").
extension GStreamerEngine {
    /// How long the loop waits for one call on playbin. A playbin that works answers within milliseconds
    /// (NULL included); with GroupSwitch's wait before NULL (`switchTimeout`), a call that goes to NULL still
    /// answers within 5 s.
    static let stateChangeLimit = 2.0

    /// playbin's change to `state`; a playbin that does not come back from it is replaced.
    func changeState(to state: State) {
        bounded("going to \(state)") { $0.setState(state) }
    }

    /// `call` on playbin (a state change, a seek, a property that takes playbin's locks); `nil` when playbin did
    /// not come back from it: it has been replaced, and the loaded item started again in the new one.
    @discardableResult
    func bounded<T>(_ what: String, _ call: @escaping (Element) -> T) -> T? {
        guard let pipeline else { return nil }  // none built yet: nothing loaded, nothing to change
        if let answer = pipeline.within(Self.stateChangeLimit, call) { return answer }
        apply(.stuck(what))
        return nil
    }

    /// A query of playbin (position, duration, seekability); `nil` when it has no answer now or is stuck. A
    /// stuck one is replaced on the loop's next turn: a query runs inside a getter or a report, whose caller
    /// expects no events meanwhile.
    func query<T>(_ call: @escaping (Element) -> T?) -> T? {
        guard let pipeline else { return nil }
        if let answer = pipeline.within(Self.stateChangeLimit, call) { return answer }
        let stuck = pipeline
        EventLoop.main.post { [weak self] in
            guard let self, pipeline === stuck else { return }
            apply(.stuck("a query"))
        }
        return nil
    }

    /// A new pipeline instead of the stuck one, at NULL. The loaded item is started again in it by `apply(.stuck)`.
    /// None when it cannot be built: the next load tries again.
    func replaceStuckPipeline(stuckIn what: String) {
        Self.log.error("""
            GStreamer did not come back from \(what) within \(Self.stateChangeLimit) s (a deadlock inside playbin): \
            that pipeline is given up and a new one built
            """)
        let replacements = (pipeline?.replacementsInARow ?? 0) + 1
        do {
            let fresh = try makePipeline(sink: state.output.sink ?? configuration.sink)
            fresh.replacementsInARow = replacements
            pipeline = fresh
        } catch {
            pipeline = nil
            Self.log.error("no new playbin could be built (\(error)): nothing plays")
        }
    }

    /// A pipeline playing into `sink`, its bus watched, with the volume and the equaliser's gains last asked for:
    /// the first load's, and every one that replaces a stuck one.
    func makePipeline(sink: String) throws -> Pipeline {
        let fresh = try Pipeline(configuration, sink: sink, streaming: streaming)
        fresh.watchBus { [weak self] message in self?.apply(.bus(message)) }
        fresh.playbin.set("volume", state.volume)
        fresh.equalizer.set(state.equalizer)
        return fresh
    }

    /// Pipelines given up in a row for one item before it fails.
    static let replacementsPerItem = 1
}
