import Dispatch
import GStreamer
import PlayerCore

/// Prerolls the prepared next local file once, on a thread of its own, before playbin may switch to it
/// without a gap: only a file that prerolled is handed over at about-to-finish (`StreamingSide.takeNext`).
///
/// playbin switches items on the streaming thread that drains the old one. A next file that fails at once
/// (cut short, not audio after all, deleted since it was queued) fails inside that switch, and there
/// GStreamer 1.22 deadlocked or aborted against the loop's next state change, in about one run in three of
/// `scripts/soak --mode failing` (docs/platform.md). An unchecked file is not handed over: the current track
/// ends, and the core loads the next like any other, where a failure is an ordinary one. A file written to,
/// replaced or deleted after its check is not handed over either: at about-to-finish its identity
/// (`FileIdentity`) must still be the one that prerolled (`StreamingSide.takeNext`).
///
/// Only the newest prepared file is checked: one prepared and replaced meanwhile is skipped. A short track
/// may reach about-to-finish before its successor's check has ended: the streaming thread then waits for it
/// (`StreamingSide.waitForNextFilesCheck`), never for the loop, and not at all while the loop has a seek pending.
/// What the checks share with the streaming threads (`CheckState`) is behind `StreamingSide`'s lock.
/// Upstream: no issue found; playbin2's switch is unchanged as of GStreamer 1.29.2 (main, 2026-08), so this stays
/// (docs/platform.md, "Workarounds").
final class NextItemCheck {
    private let queue = DispatchQueue(label: "quaver.next-item-check")
    private let streaming: StreamingSide
    private let timeout: Duration

    /// - Parameter timeout: how long one file may take to preroll before it counts as failed.
    init(streaming: StreamingSide, timeout: Duration) {
        self.streaming = streaming
        self.timeout = timeout
    }

    /// Prerolls `item`'s file; if it prerolled, did not change meanwhile and is still the newest, the prepared
    /// item is marked checked with the identity of the file that prerolled and what the preroll read (tags,
    /// cover, length: the prompt tag read's, so the file is prerolled once). A switch waiting is woken at the end.
    func check(_ item: EngineItem) {
        let streaming = streaming, timeout = timeout
        streaming.locked { shared in
            shared.checks.newest = item
            shared.checks.underWay += 1
        }
        queue.async {
            defer { streaming.changing { $0.checks.underWay -= 1 } }
            guard streaming.isNewestCheck(item), let before = FileIdentity(fileURI: item.uri),
                  WAVGuard.refusal(fileURI: item.uri) == nil else { return }
            guard let media = PrerollProbe.read(item.uri, timeout: timeout), FileIdentity(fileURI: item.uri) == before,
                  streaming.isNewestCheck(item) else { return }
            streaming.checked(item, file: before, read: TagReader.tags(media, includingImage: true))
        }
    }
}

/// The next file's checks, as the streaming threads see them.
struct CheckState {
    /// The item checked last asked for: an older check still running is not used.
    var newest: EngineItem?
    /// Checks asked for that have not ended.
    var underWay = 0
}

extension StreamingSide {
    fileprivate func isNewestCheck(_ item: EngineItem) -> Bool { locked { $0.checks.newest == item } }
}
