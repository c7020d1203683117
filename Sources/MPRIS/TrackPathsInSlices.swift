import DBus
import EventLoop
import PlayerCore

/// The `ao` of a whole track list, built `sliceSize` paths per loop turn: for 100 000 tracks, building it
/// in one turn held every other client for 20 ms on top of sending the signal that carries it.
/// The ids are taken when it starts; the caller compares them with the queue when `finished` runs.
final class TrackPathsInSlices {
    static let sliceSize = 5_000

    let ids: [TrackID]
    private var paths: [DBusValue] = []
    private let finished: (_ ids: [TrackID], _ paths: DBusValue) -> Void

    init(_ ids: [TrackID], finished: @escaping (_ ids: [TrackID], _ paths: DBusValue) -> Void) {
        self.ids = ids
        self.finished = finished
    }

    /// Builds the first slice now and the others on the next turns; the object lives in the posted closures.
    func start() {
        paths.reserveCapacity(ids.count)
        step(from: 0)
    }

    private func step(from start: Int) {
        let end = min(ids.count, start + Self.sliceSize)
        for id in ids[start..<end] { paths.append(.objectPath(TrackPath.path(of: id))) }
        guard end < ids.count else { return finished(ids, .array(element: "o", paths)) }
        EventLoop.main.postInBackground { self.step(from: end) }
    }
}
