import DBus
import EventLoop

/// Turns the player's many small changes into one `PropertiesChanged` per interface per loop turn.
///
/// Mopidy-MPRIS and mpv-mpris do the same: the first change of a turn posts a flush to the loop; the flush
/// reads the signalled properties again, compares them with what clients were last told, and sends only
/// the real changes, with values (docs/mpris.md, "PropertiesChanged") — so a track change carries Metadata and PlaybackStatus
/// together however many core events it took. Position is never among the signalled properties (docs/mpris.md, "Position").
final class PropertiesBatcher {
    typealias Values = [String: DBusValue]

    private struct Watched {
        let read: () -> Values
        var lastSent: Values
    }

    private let emit: (_ interface: String, _ changed: Values, _ invalidated: [String]) -> Void
    private var watched: [String: Watched] = [:]
    private var order: [String] = []
    private var dirty: Set<String> = []
    private var invalidated: [String: Set<String>] = [:]
    private var flushPosted = false
    /// Runs at the start of every flush, for other batched signals (TrackList.TrackMetadataChanged).
    var beforeFlush: [() -> Void] = []

    init(emit: @escaping (_ interface: String, _ changed: Values, _ invalidated: [String]) -> Void) {
        self.emit = emit
    }

    /// Signals changes of the values `read` returns for `interface`; what it returns now counts as sent.
    func watch(_ interface: String, read: @escaping () -> Values) {
        if watched[interface] == nil { order.append(interface) }
        watched[interface] = Watched(read: read, lastSent: read())
    }

    /// Something in `interface` may have changed: compare at the end of this loop turn.
    func markChanged(_ interface: String) {
        dirty.insert(interface)
        postFlush()
    }

    /// `property` is signalled by invalidation only (TrackList.Tracks, docs/mpris.md, "PropertiesChanged").
    func invalidate(_ property: String, in interface: String) {
        invalidated[interface, default: []].insert(property)
        postFlush()
    }

    /// Runs work on the next flush (after any `markChanged` of this turn).
    func postFlush() {
        guard !flushPosted else { return }
        flushPosted = true
        EventLoop.main.post { [weak self] in self?.flush() }
    }

    func flush() {
        flushPosted = false
        for work in beforeFlush { work() }
        let interfaces = order.filter { dirty.contains($0) || invalidated[$0] != nil }
            + invalidated.keys.filter { !order.contains($0) }.sorted()
        for interface in interfaces {
            let changed = takeChanges(of: interface)
            let gone = invalidated.removeValue(forKey: interface).map { $0.sorted() } ?? []
            if !changed.isEmpty || !gone.isEmpty { emit(interface, changed, gone) }
        }
        dirty = []
    }

    private func takeChanges(of interface: String) -> Values {
        guard dirty.contains(interface), var entry = watched[interface] else { return [:] }
        let now = entry.read()
        let changed = now.filter { entry.lastSent[$0.key] != $0.value }
        entry.lastSent = now
        watched[interface] = entry
        return changed
    }
}
