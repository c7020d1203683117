import ControlAPI
import DBus
import Foundation
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
        try daemon.call("RemoveTracks", [.objectPathArray(try removed.map(ObjectPath.init))], on: ControlAPI.quaverInterface)
        XCTAssertEqual(daemon.tracks, Array(ids[..<100] + ids[3_100...]))
        daemon.assertIntact(tracks: Array(ids[..<100] + ids[3_100...]))
    }
}
