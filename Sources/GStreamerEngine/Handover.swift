import Glibc
import PlayerCore

/// What the loop thread and playbin's streaming thread share, behind one mutex.
///
/// `about-to-finish` runs on a streaming thread and must never wait for the loop thread (the loop
/// may be changing the pipeline's state and waiting on a pad lock that thread holds: Mopidy's
/// deadlock, docs/platform.md, "GStreamer behaviour"). So the loop leaves the next item here ahead of time, the streaming thread
/// takes it, and the loop later learns on STREAM_START which item's stream has started: the oldest
/// one handed to playbin. Items, not URIs, are queued: the same URI may follow itself (loop-track).
///
/// A remote next item comes with its cached `RemoteFile`, downloading ahead; it goes to playbin as
/// `appsrc://` only if its download has answered by then, otherwise playbin's own source plays the URI.
final class Handover {
    struct Handed {
        let item: EngineItem
        /// The file that serves its `appsrc://`, or `nil` when playbin was given the URI itself.
        let remote: RemoteFile?
        /// Taken at about-to-finish: playbin goes on to it by itself (gapless), not by a load.
        let isSuccessor: Bool
    }

    private var mutex = pthread_mutex_t()
    private var next: Handed?
    private var handedToPlaybin: [Handed] = []

    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    /// A new item was loaded directly (or nothing, on stop): forget the prepared and pending ones and
    /// close their remote files.
    func reset(loading item: EngineItem?) {
        let dropped = locked { () -> [RemoteFile] in
            let files = ([next] + handedToPlaybin).compactMap { $0?.remote }
            next = nil
            handedToPlaybin = item.map { [Handed(item: $0, remote: nil, isSuccessor: false)] } ?? []
            return files
        }
        dropped.forEach { $0.close() }
    }

    /// The item to play after the current one; a file prepared earlier and not taken is closed.
    func prepare(_ item: EngineItem?, remote: RemoteFile?) {
        let replaced = locked { () -> RemoteFile? in
            defer { next = item.map { Handed(item: $0, remote: remote, isSuccessor: true) } }
            return next?.remote
        }
        replaced?.close()
    }

    /// The remote file of the prepared item, while it waits to be taken.
    var preparedRemote: RemoteFile? { locked { next?.remote } }

    /// Streaming thread: takes the prepared item, if any, recording that playbin now has it. Its remote
    /// file goes along only if it can serve bytes now; otherwise it is closed (never waited for).
    func takeNext() -> Handed? {
        let (taken, unready) = locked { () -> (Handed?, RemoteFile?) in
            guard let prepared = next else { return (nil, nil) }
            next = nil
            let usable = prepared.remote?.canServe == true
            let handed = usable ? prepared : Handed(item: prepared.item, remote: nil, isSuccessor: true)
            handedToPlaybin.append(handed)
            return (handed, usable ? nil : prepared.remote)
        }
        unready?.close()
        return taken
    }

    /// The item whose stream has just started (the oldest handed to playbin).
    func streamStarted() -> Handed? {
        locked { handedToPlaybin.isEmpty ? nil : handedToPlaybin.removeFirst() }
    }

    /// The oldest item handed to playbin whose stream has not started yet.
    var pending: EngineItem? { locked { handedToPlaybin.first?.item } }

    /// The item handed to playbin (not started yet) that `file` serves.
    func handedItem(servedBy file: RemoteFile) -> EngineItem? {
        locked { handedToPlaybin.first { $0.remote === file }?.item }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
