import ControlAPI
import DBus
import EventLoop
import Foundation
import StateStore
import TestSupport
import XCTest

/// Edits of thousands of tracks are applied in slices between other clients' calls (docs/settings-and-state.md,
/// "Long queues"): the result must be exactly what one edit in one go would have left.
final class LongQueueTests: XCTestCase {
    /// `count` links to one tagged file in a folder of their own; their URIs in order.
    private func links(_ count: Int, in folder: TemporaryDirectory, named prefix: String) throws -> [String] {
        let source = try Media.fixtures().flac
        return try (0..<count).map { number in
            let link = folder.url.appendingPathComponent(String(format: "%@-%05d.flac", prefix, number))
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: source)
            return link.absoluteString
        }
    }

    private func urls(_ daemon: RunningDaemon, from start: Int, count: Int) throws -> [String] {
        let reply = try daemon.call("GetQueueRange", [.uint32(UInt32(start)), .uint32(UInt32(count))], on: ControlAPI.quaverInterface)
        return (reply.first?.arrayValue ?? []).map { entry in
            guard case .structure(let fields) = entry, fields.count == 2 else { return "?" }
            return fields[1].dictionaryValue?["xesam:url"]?.unwrapped.stringValue ?? "?"
        }
    }

    /// A long saved queue is read off the loop (docs/settings-and-state.md), so the daemon answers before it is
    /// back. The file's size, which decides that, once read as 0 through FoundationEssentials' attributes: every
    /// saved queue was restored on the loop, and the first answer waited for all of it (20 000: 240–300 ms).
    func testALongSavedQueueIsRestoredAfterTheFirstAnswer() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let uri = Media.uri(try Media.fixtures().flac)
        let queue = (0..<20_000).map { SavedTrack(uri: uri, metadata: SavedMetadata(title: "Song \($0)")) }
        try StateFile(url: home.url.appendingPathComponent("state/quaver/state.json"))
            .save(SavedState(queue: queue, currentIndex: 0))
        let daemon = try RunningDaemon(home: home)
        let first = try daemon.get("QueueLength", ControlAPI.quaverInterface).int64Value
        XCTAssertEqual(first, 0, "the first answer comes before the saved queue")
        XCTAssertTrue(eventually(timeout: 60) { (try? daemon.get("QueueLength", ControlAPI.quaverInterface).int64Value) == 20_000 })
    }

    func testLongAddReplaceAndRemoveLeaveTheQueueAsOneEditWould() throws {
        let folder = try TemporaryDirectory(prefix: "long-queue")
        let first = try links(5_500, in: folder, named: "a")
        let second = try links(4_200, in: folder, named: "b")
        let daemon = try RunningDaemon([Media.uri(try Media.fixtures().flac)])
        let old = daemon.tracks
        XCTAssertEqual(old.count, 1)

        let reply = try daemon.call("AddTracks", [.stringArray(first), .string("start"), .boolean(false)], on: ControlAPI.quaverInterface)
        let added = reply.first?.arrayValue?.compactMap(\.objectPathValue).map(\.rawValue) ?? []
        XCTAssertEqual(added.count, first.count)
        XCTAssertEqual(daemon.tracks, added + old, "in order, before the track that was there")
        XCTAssertEqual(try urls(daemon, from: 2_999, count: 3), Array(first[2_999..<3_002]), "across a slice boundary")
        XCTAssertEqual(try daemon.get("QueueLength", ControlAPI.quaverInterface).int64Value, Int64(first.count + 1))

        let replaced = try daemon.call("ReplaceQueue", [.stringArray(second), .boolean(false)], on: ControlAPI.quaverInterface)
        let ids = replaced.first?.arrayValue?.compactMap(\.objectPathValue).map(\.rawValue) ?? []
        XCTAssertEqual(daemon.tracks, ids)
        XCTAssertEqual(try urls(daemon, from: 4_198, count: 10), Array(second.suffix(2)))

        let removed = Array(ids[100..<3_100])
        try daemon.call("RemoveTracks", [.objectPathArray(removed.map(ObjectPath.init))], on: ControlAPI.quaverInterface)
        XCTAssertEqual(daemon.tracks, Array(ids[..<100] + ids[3_100...]))
        daemon.assertIntact(tracks: Array(ids[..<100] + ids[3_100...]))
    }

    /// Calls answered later have their arguments decoded off the loop; calls sent one after another without
    /// waiting must still be applied in the order they were sent.
    func testAddTracksSentTogetherAreQueuedInTheOrderSent() throws {
        let folder = try TemporaryDirectory(prefix: "long-queue-order")
        let batches = try [3, 2_500, 1, 40].enumerated().map { try links($0.element, in: folder, named: "o\($0.offset)") }
        let daemon = try RunningDaemon([])
        var answers: [Result<[DBusValue], DBusError>] = []
        for batch in batches {
            daemon.client.call(destination: ControlAPI.busName, path: try ObjectPath(ControlAPI.objectPath),
                               interface: ControlAPI.quaverInterface, method: "AddTracks",
                               arguments: [.stringArray(batch), .string("end"), .boolean(false)]) { answers.append($0) }
        }
        XCTAssertTrue(EventLoop.main.run(until: { answers.count == batches.count }, timeout: 20))
        let queued = try urls(daemon, from: 0, count: 10_000)
        XCTAssertEqual(queued, batches.flatMap { $0 }, "\(queued.count) queued")
    }

    /// The signals that edit the track list and TrackList PropertiesChanged an in-process client receives
    /// after `first` is queued, in order, as `(member, tracks)`: the TrackListReplaced track list, or the
    /// invalidated properties. TrackMetadataChanged (tags read in the background) is left out.
    /// `daemon` starts with an empty queue: `first` is added once the client listens, and its own signals are
    /// waited for and left out, so no signal of the start can arrive late among the ones recorded.
    private func recordTrackListSignals(_ daemon: RunningDaemon, after first: String) throws
        -> ([SignalSubscription], () -> [(String, [String])]) {
        var seen: [(String, [String])] = []
        let trackList = try daemon.client.subscribe(rule: MatchRule(sender: ControlAPI.busName,
                                                                    interface: ControlAPI.trackListInterface)) {
            guard $0.member != "TrackMetadataChanged" else { return }
            seen.append(($0.member, $0.arguments.first?.arrayValue?.compactMap(\.objectPathValue).map(\.rawValue) ?? []))
        }
        let properties = try daemon.client.subscribe(rule: MatchRule(sender: ControlAPI.busName,
                                                                     interface: ControlAPI.propertiesInterface,
                                                                     member: "PropertiesChanged",
                                                                     arg0: ControlAPI.trackListInterface)) {
            seen.append(("PropertiesChanged", $0.arguments.count > 2 ? $0.arguments[2].stringArrayValue ?? [] : []))
        }
        try daemon.call("AddTracks", [.stringArray([first]), .string("end"), .boolean(false)], on: ControlAPI.quaverInterface)
        XCTAssertTrue(pump(until: { seen.contains { $0.0 == "PropertiesChanged" } }, timeout: 10), "\(seen)")
        seen = []
        return ([trackList, properties], { seen })
    }

    /// The whole track list is built over several turns (more than one slice of paths) for AddTracks and
    /// for RemoveTracks of more than 64: clients must still get one TrackListReplaced with the queue as it
    /// is, before the Tracks invalidation, and no TrackAdded or TrackRemoved.
    func testLongEditsAreAnnouncedByOneTrackListReplacedWithTheWholeQueue() throws {
        let folder = try TemporaryDirectory(prefix: "long-queue-signals")
        let many = try links(12_500, in: folder, named: "c")
        let daemon = try RunningDaemon()
        let (subscriptions, seen) = try recordTrackListSignals(daemon, after: Media.uri(try Media.fixtures().flac))
        defer { subscriptions.forEach { $0.cancel() } }

        let reply = try daemon.call("AddTracks", [.stringArray(many), .string("end"), .boolean(false)], on: ControlAPI.quaverInterface)
        let added = reply.first?.arrayValue?.compactMap(\.objectPathValue).map(\.rawValue) ?? []
        XCTAssertEqual(added.count, many.count)
        let queue = daemon.tracks
        XCTAssertEqual(Array(queue.dropFirst()), added, "the reply's ids, in order")
        XCTAssertTrue(EventLoop.main.run(until: { seen().contains { $0.0 == "PropertiesChanged" } }, timeout: 10))
        EventLoop.main.run(until: { false }, timeout: 0.3)  // nothing else may follow
        XCTAssertEqual(seen().map(\.0), ["TrackListReplaced", "PropertiesChanged"])
        XCTAssertTrue(seen().first?.1 == queue, "the whole queue, in order: \(seen().first?.1.count ?? 0) paths")
        XCTAssertEqual(seen().last?.1, ["Tracks"])

        let removed = Set(added.enumerated().filter { $0.offset % 4 == 1 }.map(\.element))
        try daemon.call("RemoveTracks", [.objectPathArray(removed.sorted().map(ObjectPath.init))],
                        on: ControlAPI.quaverInterface)
        let left = queue.filter { !removed.contains($0) }
        XCTAssertEqual(daemon.tracks, left)
        XCTAssertTrue(EventLoop.main.run(until: { seen().count >= 4 }, timeout: 10))
        EventLoop.main.run(until: { false }, timeout: 0.3)
        XCTAssertEqual(seen().dropFirst(2).map(\.0), ["TrackListReplaced", "PropertiesChanged"])
        XCTAssertTrue(seen().dropFirst(2).first?.1 == left, "\(seen().dropFirst(2).first?.1.count ?? 0) paths")
        daemon.assertIntact(tracks: left)

        // A move in a queue this long has its track list built over several turns too; two moves sent
        // together end in a signal with the queue after both.
        let noTrack = DBusValue.objectPath(try ObjectPath(ControlAPI.TrackPath.noTrack))
        var firstMove: Result<[DBusValue], DBusError>?
        daemon.client.call(destination: ControlAPI.busName, path: try ObjectPath(ControlAPI.objectPath),
                           interface: ControlAPI.quaverInterface, method: "MoveTrack",
                           arguments: [.objectPath(try ObjectPath(left.last!)), noTrack]) { firstMove = $0 }
        try daemon.call("MoveTrack", [.objectPath(try ObjectPath(left[1])), noTrack], on: ControlAPI.quaverInterface)
        XCTAssertTrue(EventLoop.main.run(until: { firstMove != nil }, timeout: 5))
        let moved = [left[1], left.last!, left[0]] + left.dropFirst(2).dropLast()
        XCTAssertEqual(daemon.tracks, moved)
        XCTAssertTrue(EventLoop.main.run(until: { seen().dropFirst(4).last?.1 == ["Tracks"] && seen().dropFirst(4).contains { $0.1 == moved } },
                                         timeout: 10), "\(seen().dropFirst(4).map { ($0.0, $0.1.count) })")
        EventLoop.main.run(until: { false }, timeout: 0.3)
        XCTAssertEqual(seen().dropFirst(4).filter { $0.0 == "TrackListReplaced" }.last?.1, moved)
        XCTAssertFalse(seen().dropFirst(4).contains { $0.0 == "TrackAdded" || $0.0 == "TrackRemoved" })
        daemon.assertIntact(tracks: moved)
    }
}
