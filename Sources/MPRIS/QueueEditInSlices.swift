import DBus
import EventLoop
import PlayerCore

/// Queues a long list of URIs (AddTracks or ReplaceQueue of a whole library) as many per loop turn as fit in
/// a few milliseconds (`TurnBudget`, at most `sliceSize`, or `sliceBytes` of URIs), so that other clients are
/// answered between slices: 100 000 at once held the loop for 0.3 s, a slice of 5 000 still took up to 60 ms
/// on a busy machine, and one of 2 000 up to 42 ms (`quaver add` of 20 000 files, 2 cores under load);
/// 2 000 URIs of 64 KiB would be 128 MB copied in one turn.
///
/// Each slice goes right after the previous one. Another client's edit may land between two slices: if
/// it removed the track the next slice was to follow, the rest goes to the end of the queue. The caller
/// answers once the last slice is in (`finished`, with every new id in order, and for AddTracks and ReplaceQueue
/// their paths as the `ao` of the reply, built slice by slice: in one turn they held other clients for 5 ms).
/// Clients hear one TrackListReplaced at the end instead of a signal per slice (`MPRISService.beginEditInSlices`).
final class QueueEditInSlices {
    static let sliceSize = 2000
    static let sliceBytes = 1 << 20

    private let mpris: MPRISService
    private let count: Int
    private var items: Items
    private let position: QueuePosition
    private let replacing: Bool
    /// Whether the reply carries the new tracks' paths. The library's and the shell's queries answer a count, and
    /// building 100 000 paths they never sent cost the loop 3.6 ms per 5 000 (release build), all freed in one turn.
    private let answersPaths: Bool
    private let finished: (_ ids: [TrackID], _ paths: DBusValue) -> Void
    private var added: [TrackID] = []
    private var addedPaths: [DBusValue] = []
    private var budget = TurnBudget(maximum: QueueEditInSlices.sliceSize)

    /// - Parameter replacing: the first slice replaces the queue (`Player.replace`); the others are added.
    convenience init(_ mpris: MPRISService, _ uris: [String], at position: QueuePosition, replacing: Bool,
                     finished: @escaping (_ ids: [TrackID], _ paths: DBusValue) -> Void) {
        self.init(mpris, .uris(uris), at: position, replacing: replacing, answersPaths: true, finished: finished)
    }

    /// Entries with their tags (from the library); `finished` gets the new ids only.
    convenience init(_ mpris: MPRISService, _ entries: [QueueEntry], at position: QueuePosition, replacing: Bool,
                     finished: @escaping (_ ids: [TrackID]) -> Void) {
        self.init(mpris, .entries(entries), at: position, replacing: replacing, answersPaths: false) { ids, _ in
            finished(ids)
        }
    }

    private init(_ mpris: MPRISService, _ items: Items, at position: QueuePosition, replacing: Bool, answersPaths: Bool,
                 finished: @escaping (_ ids: [TrackID], _ paths: DBusValue) -> Void) {
        self.mpris = mpris
        self.count = items.count
        self.items = items
        self.position = position
        self.replacing = replacing
        self.answersPaths = answersPaths
        self.finished = finished
    }

    func start() {
        guard sliceEnd(from: 0, size: Self.sliceSize) < count else {
            added = apply(0..<count, first: true)
            return finished(added, .objectPathArray(answersPaths ? added.map(TrackPath.path(of:)) : []))
        }
        added.reserveCapacity(count)
        if answersPaths { addedPaths.reserveCapacity(count) }
        mpris.beginEditInSlices()
        step(from: 0)
    }

    /// Applies one slice and posts the next; the object lives in the posted closures until the end.
    private func step(from start: Int) {
        let end = budget.slice { size in
            let end = sliceEnd(from: start, size: size)
            let ids = apply(start..<end, first: start == 0)
            added += ids
            if answersPaths { addedPaths += ids.map { .objectPath(TrackPath.path(of: $0)) } }
            return (end - start, end)
        }
        guard end < count else {
            ProcessMemory.release(items)
            items = .uris([])
            // The track list signal and the reply each carry every id: one per loop turn.
            mpris.player.shrinkQueueStorage()
            EventLoop.main.post {
                self.mpris.endEditInSlices {
                    EventLoop.main.post {
                        self.finished(self.added, .array(element: "o", self.addedPaths))
                        ProcessMemory.giveBackSoon()  // the call's message and the converted entries are garbage now
                    }
                }
            }
            return
        }
        EventLoop.main.postInBackground { self.step(from: end) }
    }

    /// Where the slice from `start` ends: after `size` URIs, or once they hold `sliceBytes`.
    private func sliceEnd(from start: Int, size: Int) -> Int {
        var end = start, bytes = 0
        while end < count, end - start < size, bytes < Self.sliceBytes {
            bytes += items.uri(at: end).utf8.count
            end += 1
        }
        return end
    }

    private func apply(_ slice: Range<Int>, first: Bool) -> [TrackID] {
        let entries = slice.map(items.entry(at:))
        let player = mpris.player
        if first { return replacing ? player.replace(with: entries) : player.add(entries, at: position) }
        let previous = added.last.flatMap { player.index(of: $0) != nil ? $0 : nil }
        return player.add(entries, at: previous.map { .after($0) } ?? .end)
    }

    /// What is queued: URIs, each made an entry as its slice is applied, or entries given whole (with their tags,
    /// from the library).
    private enum Items {
        case uris([String])
        case entries([QueueEntry])

        var count: Int {
            switch self {
            case .uris(let uris): uris.count
            case .entries(let entries): entries.count
            }
        }

        func uri(at index: Int) -> String {
            switch self {
            case .uris(let uris): uris[index]
            case .entries(let entries): entries[index].uri
            }
        }

        func entry(at index: Int) -> QueueEntry {
            switch self {
            case .uris(let uris): QueueEntry(uri: uris[index])
            case .entries(let entries): entries[index]
            }
        }
    }
}
