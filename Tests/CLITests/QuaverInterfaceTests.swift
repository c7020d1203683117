import DBus
import EventLoop
import Foundation
import MPRIS
import PlayerCore
import TestSupport
import XCTest

/// org.quaver.Quaver1 in-process, driven by python3-dbus as an independent client.
final class QuaverInterfaceTests: XCTestCase {
    func testAddTracksAtEndStartNextAndPlay() throws {
        let service = try QuaverService()
        let uris = try service.makeFiles(["a.flac", "b.flac", "c.flac", "d.flac", "e 5#.flac"])
        let output = try service.python("""
        def add(items, where, play):
            return [str(i) for i in quaver.AddTracks(items, where, play)]
        u = \(pythonList(uris))
        print(json.dumps([add(u[0:2], 'end', False), add(u[2:3], 'start', False), add(u[3:4], 'next', False),
                          add(u[4:5], 'end', True)]))
        """)
        let returned = try JSONDecoder().decode([[String]].self, from: Data(output.utf8)).flatMap { $0 }
        XCTAssertEqual(service.queueURIs, [uris[2], uris[0], uris[3], uris[1], uris[4]])
        let paths = Dictionary(uniqueKeysWithValues: service.player.tracks.map { ($0.uri, "/org/quaver/Track/\($0.id.rawValue)") })
        XCTAssertEqual(returned, uris.map { paths[$0]! })
        XCTAssertEqual(service.player.currentTrack?.uri, uris[4], "play=true makes the first added current")
        XCTAssertEqual(service.player.status, .playing)
    }

    func testRefusedItemsLeaveTheQueueUnchanged() throws {
        let service = try QuaverService()
        let good = try service.makeFiles(["good.flac"])[0]
        let folder = service.media.url.absoluteString
        service.player.add([good])
        let fifo = service.media.path + "/pipe.flac"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let output = try service.python("""
        good = \(pythonString(good))
        for bad in ['ftp://host/x.mp3', 'file:///no/such/file.flac', \(pythonString(folder)), 'music/a.flac',
                    'file://otherhost/x.flac', 'file://\(fifo)', 'http://']:
            print(error_of(quaver.AddTracks, [good, bad], 'end', False))
        print(error_of(quaver.ReplaceQueue, [good, 'gopher://x'], True))
        print(error_of(quaver.AddTracks, [good], 'middle', False))
        """)
        let lines = output.split(separator: "\n")
        XCTAssertEqual(lines.count, 9, output)
        for line in lines {
            XCTAssertTrue(line.hasPrefix("org.freedesktop.DBus.Error.InvalidArgs: "), String(line))
        }
        XCTAssertTrue(lines[0].contains("item 2 \"ftp://host/x.mp3\""), String(lines[0]))
        XCTAssertTrue(lines[1].contains("no such file"), String(lines[1]))
        XCTAssertTrue(lines[2].contains("not a regular file"), String(lines[2]))
        XCTAssertTrue(lines[5].contains("not a regular file"), String(lines[5]))
        XCTAssertTrue(lines[8].contains("\"middle\""), String(lines[8]))
        XCTAssertEqual(service.queueURIs, [good])
        XCTAssertEqual(service.player.status, .stopped)
    }

    func testReplaceRemoveMoveAndClear() throws {
        let service = try QuaverService()
        let uris = try service.makeFiles(["a.ogg", "b.ogg", "c.ogg"])
        let output = try service.python("""
        ids = quaver.ReplaceQueue(\(pythonList(uris)), False)
        quaver.RemoveTracks([ids[1]])
        quaver.MoveTrack(ids[2], '/org/mpris/MediaPlayer2/TrackList/NoTrack')
        first = [str(t[0]) for t in quaver.GetQueue()[0]]
        quaver.MoveTrack(ids[2], ids[0])
        second = [str(t[0]) for t in quaver.GetQueue()[0]]
        print(error_of(quaver.RemoveTracks, [ids[0], '/org/quaver/Track/999']))
        print(error_of(quaver.MoveTrack, ids[1], ids[0]))
        print(json.dumps([[str(i) for i in ids], first, second]))
        """)
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, output)
        XCTAssertTrue(lines[0].contains("InvalidArgs") && lines[0].contains("/org/quaver/Track/999"), lines[0])
        XCTAssertTrue(lines[1].contains("InvalidArgs"), lines[1])
        let lists = try JSONDecoder().decode([[String]].self, from: Data(lines[2].utf8))
        XCTAssertEqual(lists[1], [lists[0][2], lists[0][0]])
        XCTAssertEqual(lists[2], [lists[0][0], lists[0][2]])
        XCTAssertEqual(service.queueURIs, [uris[0], uris[2]], "a refused RemoveTracks removes nothing")
        try service.python("quaver.Clear()")
        XCTAssertTrue(service.player.tracks.isEmpty)
    }

    func testGetQueueRangeGivesPagesAndTheLength() throws {
        let service = try QuaverService()
        let ids = service.player.add(try service.makeFiles(["a.flac", "b.flac", "c.flac", "d.flac", "e.flac"]))
        service.player.goTo(ids[3])
        let output = try service.python("""
        for start, count in [(1, 2), (4, 10), (9, 3), (0, 0)]:
            tracks, current, total = quaver.GetQueueRange(dbus.UInt32(start), dbus.UInt32(count))
            print(' '.join(str(path) for path, meta in tracks) or '-', current, int(total))
        print(error_of(quaver.GetQueueRange, 'one', 2, signature='su'))
        """)
        let path = { (index: Int) in "/org/quaver/Track/\(ids[index].rawValue)" }
        XCTAssertEqual(output.split(separator: "\n").map(String.init).prefix(4), [
            "\(path(1)) \(path(2)) \(path(3)) 5", "\(path(4)) \(path(3)) 5", "- \(path(3)) 5", "- \(path(3)) 5",
        ])
        XCTAssertTrue(output.split(separator: "\n").last?.contains("InvalidArgs") == true, output)
    }

    func testGetQueueMetadataAndProperties() throws {
        let service = try QuaverService()
        let uris = try service.makeFiles(["01 Intro.flac", "b.flac"])
        let ids = service.player.add(uris)
        var tags = TrackTags()
        tags.title = "Song"
        tags.artists = ["Ann", "Bob"]
        tags.trackNumber = 4
        service.player.updateTags(ids[1], tags)
        service.player.goTo(ids[1])
        let output = try service.python("""
        tracks, current = quaver.GetQueue()
        print(current)
        for path, meta in tracks:
            print(path, sorted((str(k), type(v).__name__, str(v) if not isinstance(v, dbus.Array) else '|'.join(v))
                               for k, v in meta.items()))
        allprops = props.GetAll('org.quaver.Quaver1')
        print(sorted((str(k), type(v).__name__, str(v)) for k, v in allprops.items()))
        print(error_of(props.Set, 'org.quaver.Quaver1', 'State', 'playing'))
        print('org.quaver.Quaver1' in obj.Introspect(dbus_interface='org.freedesktop.DBus.Introspectable'))
        """)
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 6, output)
        XCTAssertEqual(lines[0], "/org/quaver/Track/\(ids[1].rawValue)")
        XCTAssertTrue(lines[1].contains("('xesam:title', 'String', '01 Intro')"), lines[1])
        XCTAssertTrue(lines[1].contains("('mpris:trackid', 'ObjectPath', '/org/quaver/Track/\(ids[0].rawValue)')"), lines[1])
        XCTAssertTrue(lines[1].contains("('xesam:url', 'String', '\(uris[0])')"), lines[1])
        XCTAssertTrue(lines[2].contains("('xesam:artist', 'Array', 'Ann|Bob')"), lines[2])
        XCTAssertTrue(lines[2].contains("('xesam:trackNumber', 'Int32', '4')"), lines[2])
        XCTAssertTrue(lines[1].contains("('quaver:status', 'String', 'unknown')"), lines[1])
        XCTAssertEqual(lines[3], "[('BufferedRanges', 'Array', \"dbus.Array([], signature=dbus.Signature('(dd)'), variant_level=1)\"), "
                       + "('BufferingPercent', 'Int32', '100'), ('LastError', 'String', ''), ('LastErrorKind', 'String', ''), "
                       + "('QueueLength', 'UInt32', '2'), ('State', 'String', 'stopped'), ('Version', 'String', '1.2.3-test'), "
                       + "('WaitingReason', 'String', 'none')]")
        XCTAssertTrue(lines[4].hasPrefix("org.freedesktop.DBus.Error.PropertyReadOnly"), lines[4])
        XCTAssertEqual(lines[5], "True")
    }

    /// PropertiesChanged carries values, once per command, only for what changed (docs/mpris.md, "PropertiesChanged").
    func testPropertiesChangedAfterEachCommand() throws {
        let service = try QuaverService()
        let uris = try service.makeFiles(["a.flac", "b.flac"])
        let output = try service.python("""
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib
        bus = dbus.SessionBus(private=True, mainloop=DBusGMainLoop())
        quaver = dbus.Interface(bus.get_object('org.mpris.MediaPlayer2.quaver', '/org/mpris/MediaPlayer2'), 'org.quaver.Quaver1')
        seen = []
        def changed(interface, values, invalidated):
            seen.append({str(k): str(v) for k, v in values.items()})
        bus.add_signal_receiver(changed, 'PropertiesChanged', 'org.freedesktop.DBus.Properties',
                                path='/org/mpris/MediaPlayer2', arg0='org.quaver.Quaver1')
        loop = GLib.MainLoop()
        def step(calls):
            if calls:
                calls[0]()
                GLib.timeout_add(400, step, calls[1:])
            else:
                loop.quit()
            return False
        GLib.timeout_add(200, step, [lambda: quaver.AddTracks(\(pythonList(uris)), 'end', True),
                                     lambda: quaver.AddTracks([], 'end', False),
                                     lambda: quaver.Clear()])
        loop.run()
        print(json.dumps(seen))
        """)
        let signals = try JSONDecoder().decode([[String: String]].self, from: Data(output.utf8))
        XCTAssertFalse(signals.contains { $0.isEmpty || $0["Version"] != nil }, "\(signals)")
        XCTAssertEqual(signals.first?["QueueLength"], "2", "\(signals)")
        XCTAssertTrue(signals.contains { $0["State"] == "playing" }, "\(signals)")
        XCTAssertEqual(signals.last, ["QueueLength": "0", "State": "stopped"], "\(signals)")
        XCTAssertEqual(signals.filter { $0["QueueLength"] != nil }.count, 2, "an empty AddTracks changes nothing: \(signals)")
    }
}

func pythonString(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
}

func pythonList(_ items: [String]) -> String { "[" + items.map(pythonString).joined(separator: ", ") + "]" }
