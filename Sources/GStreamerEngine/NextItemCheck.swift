import Dispatch
import GStreamer
import PlayerCore
import Synchronization

/// Prerolls the prepared next local file once, on a thread of its own, before playbin may switch to it
/// without a gap: only a file that prerolled is handed over at about-to-finish (`Handover.takeNext`).
///
/// playbin switches items on the streaming thread that drains the old one. A next file that fails at once
/// (cut short, not audio after all, deleted since it was queued) fails inside that switch, and there
/// GStreamer 1.22 deadlocked or aborted against the loop's next state change, in about one run in three of
/// `scripts/soak --mode failing` (docs/platform.md). An unchecked file is not handed over: the current track
/// ends, and the core loads the next like any other, where a failure is an ordinary one. A file written to,
/// replaced or deleted after its check is not handed over either: at about-to-finish its identity
/// (`FileIdentity`) must still be the one that prerolled (`Handover.takeNext`).
///
/// Only the newest prepared file is checked: one prepared and replaced meanwhile is skipped. A short track
/// may reach about-to-finish before its successor's check has ended: the streaming thread then waits for it
/// (`GroupSwitch.wait`), never for the loop, and not at all while the loop has a seek pending.
/// Upstream: no issue found; playbin2's switch is unchanged as of GStreamer 1.29.2 (main, 2026-08), so this stays
/// (docs/platform.md, "Workarounds").
final class NextItemCheck: Sendable {
    private let queue = DispatchQueue(label: "quaver.next-item-check")
    private let newest = Mutex<EngineItem?>(nil)
    private let checksUnderWay = Mutex(0)
    private let timeout: Duration

    /// - Parameter timeout: how long one file may take to preroll before it counts as failed.
    init(timeout: Duration) { self.timeout = timeout }

    /// Whether a check asked for has not ended yet.
    var isChecking: Bool { checksUnderWay.withLock { $0 > 0 } }

    /// Prerolls `item`'s file; `passed` runs on the checking thread if it prerolled, did not change meanwhile
    /// and is still the newest, with the identity of the file that prerolled; then `ended`, whatever the outcome.
    func check(_ item: EngineItem, passed: @escaping @Sendable (EngineItem, FileIdentity) -> Void,
               ended: @escaping @Sendable () -> Void) {
        newest.withLock { $0 = item }
        checksUnderWay.withLock { $0 += 1 }
        queue.async { [self] in
            defer {
                checksUnderWay.withLock { $0 -= 1 }
                ended()
            }
            guard newest.withLock({ $0 == item }), let before = FileIdentity(fileURI: item.uri),
                  WAVGuard.refusal(fileURI: item.uri) == nil else { return }
            guard PrerollProbe.read(item.uri, timeout: timeout) != nil, FileIdentity(fileURI: item.uri) == before,
                  newest.withLock({ $0 == item }) else { return }
            passed(item, before)
        }
    }
}
