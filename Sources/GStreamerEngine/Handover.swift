import GStreamer
import Synchronization
import PlayerCore

/// What the loop thread and playbin's streaming thread share, behind one mutex.
///
/// `about-to-finish` runs on a streaming thread and must never wait for the loop thread (the loop
/// may be changing the pipeline's state and waiting on a pad lock that thread holds: Mopidy's
/// deadlock, docs/platform.md, "GStreamer behaviour"). So the loop leaves the next item here ahead of time, the streaming thread
/// takes it, and the loop later learns on STREAM_START which item's stream has started: the oldest
/// one handed to playbin. Items, not URIs, are queued: the same URI may follow itself (loop-track).
/// Upstream: by design, not a bug (playbin documents about-to-finish as emitted on a streaming thread): it stays.
///
/// A remote next item comes with its cached `RemoteFile`, downloading ahead; it goes to playbin as
/// `appsrc://` only if its download has answered by then, otherwise playbin's own source plays the URI.
final class Handover {
    struct Handed {
        var item: EngineItem
        /// The file that serves its `appsrc://`, or `nil` when playbin was given the URI itself.
        let remote: RemoteFile?
        /// Taken at about-to-finish: playbin goes on to it by itself (gapless), not by a load.
        let isSuccessor: Bool
        /// A local file: the identity of the file that prerolled once (`NextItemCheck`). It may be handed over
        /// while the file still has it.
        var checkedFile: FileIdentity?
    }

    private struct State {
        var next: Handed?
        var handedToPlaybin: [Handed] = []
    }
    private let state = Mutex(State())

    /// A new item was loaded directly (or nothing, on stop): forget the prepared and pending ones and
    /// close their remote files.
    func reset(loading item: EngineItem?) {
        let dropped = locked { state -> [RemoteFile] in
            let files = ([state.next] + state.handedToPlaybin).compactMap { $0?.remote }
            state.next = nil
            state.handedToPlaybin = item.map { [Handed(item: $0, remote: nil, isSuccessor: false)] } ?? []
            return files
        }
        dropped.forEach { $0.close() }
    }

    /// The loaded item starts again in a new playbin: items handed to the old one are forgotten (their remote
    /// files closed); the prepared one stays, for the new playbin's about-to-finish.
    func restart(_ item: EngineItem) {
        let dropped = locked { state -> [RemoteFile] in
            defer { state.handedToPlaybin = [Handed(item: item, remote: nil, isSuccessor: false)] }
            return state.handedToPlaybin.compactMap(\.remote)
        }
        dropped.forEach { $0.close() }
    }

    /// The item to play after the current one; a file prepared earlier and not taken is closed.
    func prepare(_ item: EngineItem?, remote: RemoteFile?) {
        let replaced = locked { state -> RemoteFile? in
            defer { state.next = item.map { Handed(item: $0, remote: remote, isSuccessor: true) } }
            return state.next?.remote
        }
        replaced?.close()
    }

    /// Gives prepared and handed entries with `item`'s id and URI its facts (`sharesAlbumWithNeighbour`),
    /// keeping their remote files; true when the prepared one was such an entry.
    func refresh(_ item: EngineItem) -> Bool {
        func renewed(_ handed: Handed) -> Handed {
            guard handed.item.id == item.id, handed.item.uri == item.uri else { return handed }
            var renewed = handed
            renewed.item = item
            return renewed
        }
        return locked { state in
            state.handedToPlaybin = state.handedToPlaybin.map(renewed)
            guard let next = state.next, next.item.id == item.id, next.item.uri == item.uri else { return false }
            state.next = renewed(next)
            return true
        }
    }

    /// The prepared item's file prerolled (`NextItemCheck`, on its thread) as `file`: it may be handed over.
    func checked(_ item: EngineItem, file: FileIdentity) {
        locked { state in
            guard let next = state.next, next.item.id == item.id, next.item.uri == item.uri else { return }
            state.next?.checkedFile = file
        }
    }

    /// The prepared item is a local file whose check has not passed (yet).
    var preparedAwaitsCheck: Bool {
        locked { $0.next.map { $0.remote == nil && $0.item.isLocalFile && $0.checkedFile == nil } ?? false }
    }

    /// The remote file of the prepared item, while it waits to be taken.
    var preparedRemote: RemoteFile? { locked { $0.next?.remote } }

    /// Streaming thread: takes the prepared item, if any, recording that playbin now has it. A remote item
    /// whose file cannot serve bytes yet is not taken (never waited for, and never handed to playbin as a
    /// bare http URI, which would fetch it with GStreamer's own HTTP source), nor a local file that has not
    /// prerolled (`NextItemCheck`) or has changed since (written to, replaced, deleted): the current track
    /// ends, and the core loads that item like any other.
    func takeNext() -> Handed? {
        guard let candidate = locked({ $0.next }) else { return nil }
        // Looked at outside the lock: the loop takes it too, and a file can be slow to look at.
        let unchanged = candidate.checkedFile.map { $0 == FileIdentity(fileURI: candidate.item.uri) } ?? false
        return locked { state in
            guard let prepared = state.next, prepared.item.id == candidate.item.id,
                  prepared.item.uri == candidate.item.uri, prepared.checkedFile == candidate.checkedFile,
                  prepared.remote?.canServe ?? (!prepared.item.isLocalFile || unchanged) else { return nil }
            state.next = nil
            state.handedToPlaybin.append(prepared)
            return prepared
        }
    }

    /// The item whose stream has just started (the oldest handed to playbin).
    func streamStarted() -> Handed? {
        locked { $0.handedToPlaybin.isEmpty ? nil : $0.handedToPlaybin.removeFirst() }
    }

    /// The oldest item handed to playbin whose stream has not started yet.
    var pending: EngineItem? { locked { $0.handedToPlaybin.first?.item } }

    /// The item handed to playbin (not started yet) that `file` serves.
    func handedItem(servedBy file: RemoteFile) -> EngineItem? {
        locked { $0.handedToPlaybin.first { $0.remote === file }?.item }
    }

    private func locked<T>(_ body: (inout State) -> T) -> T {
        state.withLock { body(&$0) }
    }
}

extension EngineItem {
    var isLocalFile: Bool { uri.hasPrefix("file:") }
}
