import GStreamer
import PlayerCore

/// The items the loop thread and playbin's streaming thread pass between them (`StreamingSide`'s lock).
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
struct HandoverQueue {
    struct Handed {
        var item: EngineItem
        /// The file that serves its `appsrc://`, or `nil` when playbin was given the URI itself.
        let remote: RemoteFile?
        /// Taken at about-to-finish: playbin goes on to it by itself (gapless), not by a load.
        let isSuccessor: Bool
        /// A local file: the identity of the file that prerolled once (`NextItemCheck`). It may be handed over
        /// while the file still has it.
        var checkedFile: FileIdentity?
        /// What that preroll read of it (tags, cover, length): its prompt tag read, when it becomes current,
        /// need not read the file again (`GStreamerEngine.checkedRead`).
        var checkedRead: PromptReader.Result?

        func isEntry(of other: EngineItem) -> Bool { item.id == other.id && item.uri == other.uri }
    }

    var next: Handed?
    var handedToPlaybin: [Handed] = []

    /// The prepared item is a local file whose check has not passed (yet).
    var preparedAwaitsCheck: Bool {
        next.map { $0.remote == nil && $0.item.isLocalFile && $0.checkedFile == nil } ?? false
    }
}

extension StreamingSide {
    /// A new item was loaded directly (or nothing, on stop): forget the prepared and pending ones and
    /// close their remote files.
    func reset(loading item: EngineItem?) {
        let dropped = locked { shared -> [RemoteFile] in
            let files = ([shared.handover.next] + shared.handover.handedToPlaybin).compactMap { $0?.remote }
            shared.handover.next = nil
            shared.handover.handedToPlaybin = item.map { [.init(item: $0, remote: nil, isSuccessor: false)] } ?? []
            return files
        }
        dropped.forEach { $0.close() }
    }

    /// The loaded item starts again in a new playbin: items handed to the old one are forgotten (their remote
    /// files closed); the prepared one stays, for the new playbin's about-to-finish.
    func restart(_ item: EngineItem) {
        let dropped = locked { shared -> [RemoteFile] in
            defer { shared.handover.handedToPlaybin = [.init(item: item, remote: nil, isSuccessor: false)] }
            return shared.handover.handedToPlaybin.compactMap(\.remote)
        }
        dropped.forEach { $0.close() }
    }

    /// The item to play after the current one; a file prepared earlier and not taken is closed.
    func prepare(_ item: EngineItem?, remote: RemoteFile?) {
        let replaced = locked { shared -> RemoteFile? in
            defer { shared.handover.next = item.map { .init(item: $0, remote: remote, isSuccessor: true) } }
            return shared.handover.next?.remote
        }
        replaced?.close()
    }

    /// Gives prepared and handed entries with `item`'s id and URI its facts (`sharesAlbumWithNeighbour`),
    /// keeping their remote files; true when the prepared one was such an entry.
    func refresh(_ item: EngineItem) -> Bool {
        func renewed(_ handed: HandoverQueue.Handed) -> HandoverQueue.Handed {
            guard handed.isEntry(of: item) else { return handed }
            var renewed = handed
            renewed.item = item
            return renewed
        }
        return locked { shared in
            shared.handover.handedToPlaybin = shared.handover.handedToPlaybin.map(renewed)
            guard let next = shared.handover.next, next.isEntry(of: item) else { return false }
            shared.handover.next = renewed(next)
            return true
        }
    }

    /// The prepared item's file prerolled (`NextItemCheck`, on its thread) as `file`, and `read` is what the
    /// preroll found in it: it may be handed over.
    func checked(_ item: EngineItem, file: FileIdentity, read: PromptReader.Result? = nil) {
        locked { shared in
            guard let next = shared.handover.next, next.isEntry(of: item) else { return }
            shared.handover.next?.checkedFile = file
            shared.handover.next?.checkedRead = read
        }
    }

    /// What the check read of the prepared item, if that is `item` and its file has not changed since.
    func preparedRead(of item: EngineItem) -> PromptReader.Result? {
        // The file is looked at outside the lock, as in `takeNext`.
        guard let prepared = locked({ $0.handover.next }), prepared.isEntry(of: item), let read = prepared.checkedRead,
              let file = prepared.checkedFile, FileIdentity(fileURI: item.uri) == file else { return nil }
        return read
    }

    /// The prepared item is a local file whose check has not passed (yet).
    var preparedAwaitsCheck: Bool { locked { $0.handover.preparedAwaitsCheck } }

    /// The remote file of the prepared item, while it waits to be taken.
    var preparedRemote: RemoteFile? { locked { $0.handover.next?.remote } }

    /// Streaming thread: takes the prepared item, if any, recording that playbin now has it; a remote one's
    /// file goes in the slot `source-setup` reads. A remote item whose file cannot serve bytes yet is not taken
    /// (never waited for, and never handed to playbin as a bare http URI, which would fetch it with GStreamer's
    /// own HTTP source), nor a local file that has not prerolled (`NextItemCheck`) or has changed since
    /// (written to, replaced, deleted): the current track ends, and the core loads that item like any other.
    func takeNext() -> HandoverQueue.Handed? {
        guard let candidate = locked({ $0.handover.next }) else { return nil }
        // Looked at outside the lock: the loop takes it too, and a file can be slow to look at (and so can
        // the download's own lock, behind `canServe`).
        let unchanged = candidate.checkedFile.map { $0 == FileIdentity(fileURI: candidate.item.uri) } ?? false
        let ready = candidate.remote?.canServe ?? (!candidate.item.isLocalFile || unchanged)
        return locked { shared in
            guard ready, let prepared = shared.handover.next, prepared.isEntry(of: candidate.item),
                  prepared.checkedFile == candidate.checkedFile, prepared.remote === candidate.remote else { return nil }
            shared.handover.next = nil
            shared.handover.handedToPlaybin.append(prepared)
            if let file = prepared.remote { shared.servedFile = file }
            return prepared
        }
    }

    /// The item whose stream has just started (the oldest handed to playbin).
    func streamStarted() -> HandoverQueue.Handed? {
        locked { $0.handover.handedToPlaybin.isEmpty ? nil : $0.handover.handedToPlaybin.removeFirst() }
    }

    /// The oldest item handed to playbin whose stream has not started yet.
    var pending: EngineItem? { locked { $0.handover.handedToPlaybin.first?.item } }

    /// The item handed to playbin (not started yet) that `file` serves.
    func handedItem(servedBy file: RemoteFile) -> EngineItem? {
        locked { $0.handover.handedToPlaybin.first { $0.remote === file }?.item }
    }
}

extension EngineItem {
    var isLocalFile: Bool { uri.hasPrefix("file:") }
}
