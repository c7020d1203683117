import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// One client's maximal call is refused (or carried out in slices) without holding the others back: a
/// second client polls GetAll all the while, and its longest wait is reported.
final class InputBoundsTests: XCTestCase {
    /// `python3 -c script <bus> OpenUri <bytes>` or `… AddTracks <count>`: prints `ready` once the call's
    /// arguments are built, then `<seconds> <error name: message, or no error>` when it is answered.
    static let script = "import dbus, sys, time\n" + pythonErrorOf + """
    bus = dbus.bus.BusConnection(sys.argv[1])
    player = bus.get_object('org.mpris.MediaPlayer2.quaver', '/org/mpris/MediaPlayer2')
    method, size = sys.argv[2], int(sys.argv[3])
    if method == 'OpenUri':
        uri = 'file:///' + 'a' * size
        call = lambda: player.OpenUri(uri, dbus_interface='org.mpris.MediaPlayer2.Player', timeout=600)
    else:
        uris = dbus.Array(['http://127.0.0.1:9/%d.mp3' % i for i in range(size)], signature='s')
        call = lambda: player.AddTracks(uris, 'end', False, dbus_interface='org.quaver.Quaver1', timeout=600)
    print('ready', flush=True)
    start = time.monotonic()
    outcome = error_of(call)
    print('%.3f %s' % (time.monotonic() - start, outcome), flush=True)
    """

    func testAHundredMegabyteOpenUriIsRefusedQuicklyWhileOthersAreAnswered() throws {
        let daemon = try RunningDaemon([Media.uri(try Media.fixtures().flac)])
        let queue = daemon.tracks
        let (answer, longestWait) = try callWhilePolling(daemon, "OpenUri", 100 << 20)
        XCTAssertEqual(answer.outcome, "org.freedesktop.DBus.Error.InvalidArgs: a string of more than 1048576 bytes")
        XCTAssertLessThan(answer.seconds, 5, "refused without being parsed")
        // The bus and libdbus validating the message are most of the wait (0.15 s for libdbus alone):
        // neither can be sliced, and the polls queue behind it on the bus connection.
        XCTAssertLessThan(longestWait, 3, "the other client was held back")
        daemon.assertIntact(tracks: queue)
    }

    func testTheLargestAddTracksIsSlicedAndOneMoreIsRefusedWithNothingChanged() throws {
        let daemon = try RunningDaemon([])
        let (answer, longestWait) = try callWhilePolling(daemon, "AddTracks", InputLimits.maximumURIsPerCall)
        XCTAssertEqual(answer.outcome, "no error")
        XCTAssertLessThan(longestWait, 1, "the other client was held back")
        XCTAssertEqual(try daemon.get("QueueLength", ControlAPI.quaverInterface).int64Value, Int64(InputLimits.maximumQueueLength))

        let full = daemon.tracks
        XCTAssertThrowsError(try daemon.call("AddTracks", [.stringArray(["http://127.0.0.1:9/one-more.mp3"]), .string("end"),
                                                           .boolean(false)], on: ControlAPI.quaverInterface)) { error in
            XCTAssertEqual((error as? DBusError)?.name, "org.freedesktop.DBus.Error.LimitsExceeded", "\(error)")
        }
        // 1 500 000 short URIs: about as many as one message can carry (an array holds at most 64 MiB).
        let (refused, waitWhileRefused) = try callWhilePolling(daemon, "AddTracks", 1_500_000)
        XCTAssertTrue(refused.outcome.hasPrefix("org.freedesktop.DBus.Error.LimitsExceeded: ") && refused.outcome.contains("1500000"), refused.outcome)
        XCTAssertLessThan(waitWhileRefused, 3, "the other client was held back")
        XCTAssertThrowsError(try daemon.call("OpenUri", [.string("http://127.0.0.1:9/one-more.mp3")])) { error in
            XCTAssertEqual((error as? DBusError)?.name, "org.freedesktop.DBus.Error.LimitsExceeded", "\(error)")
        }
        let tooManyIds = Array(repeating: try ObjectPath(full[0]), count: InputLimits.maximumQueueLength + 1)
        for (method, interface) in [("RemoveTracks", ControlAPI.quaverInterface), ("GetTracksMetadata", ControlAPI.trackListInterface)] {
            XCTAssertThrowsError(try daemon.call(method, [.objectPathArray(tooManyIds)], on: interface)) { error in
                XCTAssertEqual((error as? DBusError)?.name, "org.freedesktop.DBus.Error.LimitsExceeded", "\(method): \(error)")
            }
        }
        daemon.assertIntact(tracks: full)
    }

    /// User and system time `pid` has used (`/proc/<pid>/stat`, fields 14 and 15, in clock ticks of 1/100 s).
    static func cpuSeconds(of pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = text.range(of: ") ", options: .backwards) else { return 0 }
        let fields = text[afterName.upperBound...].split(separator: " ")
        return Double((Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)) / 100
    }

    /// Runs the script's call of `method` and polls GetAll(Player) from this process until it is answered:
    /// its answer, and the longest a GetAll waited (seconds; a GetAll with no answer in 10 s counts as 10).
    private func callWhilePolling(_ daemon: RunningDaemon, _ method: String, _ size: Int)
        throws -> (answer: (seconds: Double, outcome: String), longestWait: Double)
    {
        let logs = try TemporaryDirectory(prefix: "bounds-client")
        let client = try ChildProcess("/usr/bin/python3", ["-c", Self.script, daemon.bus.address, method, String(size)],
                                      logDirectory: logs.url, name: "client")
        defer { client.stop() }
        XCTAssertTrue(eventually(timeout: 60) { client.standardOutput.hasPrefix("ready\n") }, client.standardError)
        let cpuBefore = Self.cpuSeconds(of: daemon.process.pid)
        var longestWait = 0.0, longestAt = 0.0
        var polls = 0
        let began = DispatchTime.now().uptimeNanoseconds
        while client.standardOutput.split(separator: "\n").count < 2, client.isRunning {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try? daemon.getAll()
            let wait = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if wait > longestWait { (longestWait, longestAt) = (wait, Double(start - began) / 1e9) }
            polls += 1
        }
        let line = client.standardOutput.split(separator: "\n").dropFirst().first ?? ""
        let parts = line.split(separator: " ", maxSplits: 1)
        let answer = (Double(parts.first ?? "") ?? -1, parts.count > 1 ? String(parts[1]) : client.standardError)
        let cpu = Self.cpuSeconds(of: daemon.process.pid) - cpuBefore
        print("\(method) \(size): answered in \(answer.0) s; quaverd used \(cpu) s of CPU; \(polls) GetAll, the longest waited \(longestWait) s, sent \(longestAt) s in")
        return (answer, longestWait)
    }
}
