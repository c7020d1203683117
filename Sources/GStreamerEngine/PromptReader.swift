import Dispatch
import GStreamer
import PlayerCore

/// Reads one file for a caller that will wait a little for it, but not long: the track becoming current,
/// whose tags should go out in the same signal as the change of track. The read runs on a thread of its
/// own (`PrerollProbe`); the loop waits at most `within` for it (`BoundedCall`). A local file takes 1–5 ms;
/// one that takes longer (a 50 MB cover, a slow disk, a hung network mount) is not waited for: its result
/// comes later through `late`, as the background reader's results do.
///
/// One read at a time: while a read is still running, the next caller gets nil at once, so a file that
/// never finishes costs one thread and holds nobody. Called on the loop thread only.
final class PromptReader {
    typealias Result = (tags: TrackTags, duration: Duration?)

    private let queue = DispatchQueue(label: "quaver.prompt-read")
    private let timeout: Duration
    private var lastRead: BoundedCall<Result?>?

    /// - Parameter timeout: how long one file may take to preroll before it is given up.
    init(timeout: Duration) { self.timeout = timeout }

    /// What `uri` holds, if it is read within `wait`; else nil, and `late` gets the result (on the reading
    /// thread) if one comes.
    func read(_ uri: String, within wait: Duration, convert: @escaping @Sendable (DiscoveredMedia) -> Result,
              late: @escaping @Sendable (Result) -> Void) -> Result? {
        guard lastRead?.isRunning != true else { return nil }
        let timeout = timeout
        let answer = BoundedCall.run(on: queue, waitingAtMost: wait, running: { lastRead = $0 }, {
            WAVGuard.refusal(fileURI: uri) == nil ? PrerollProbe.read(uri, timeout: timeout).map(convert) : nil
        }, late: { result in if let result { late(result) } })
        return answer ?? nil
    }
}
