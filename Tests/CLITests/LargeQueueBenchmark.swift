import Foundation
import TestSupport
import XCTest

/// 20 000 tracks in one AddTracks while another client keeps asking for a property: prints how long the
/// call took and the longest wait of the other client (a measure of how long the loop was busy).
/// Asserts only that everything was queued and that the service kept answering within a generous bound.
final class LargeQueueBenchmark: XCTestCase {
    func testTwentyThousandTracksInOneCall() throws {
        let service = try QuaverService()
        let count = 20_000
        let folder = service.media.url.appendingPathComponent("many")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let uris = try (0..<count).map { index -> String in
            let file = folder.appendingPathComponent("\(index).flac")
            try Data([0]).write(to: file)
            return file.absoluteString
        }
        let list = service.media.path + "/uris.json"
        try JSONEncoder().encode(uris).write(to: URL(fileURLWithPath: list))
        let pinger = try ChildProcess("/usr/bin/python3", ["-c", pythonPrologue + """
        import time
        import os
        gaps, end = [], time.monotonic() + 600
        while time.monotonic() < end and not os.path.exists(\(pythonString(list + ".done"))):
            t = time.monotonic()
            props.Get('org.quaver.Quaver1', 'QueueLength', timeout=600)
            gaps.append(time.monotonic() - t)
        print('%d %.1f' % (len(gaps), max(gaps) * 1000))
        """], environment: service.bus.environment, logDirectory: service.bus.directory.url, name: "pinger")
        let adder = try ChildProcess("/usr/bin/python3", ["-c", pythonPrologue + """
        import time
        uris = json.load(open(\(pythonString(list))))
        time.sleep(1)
        t = time.monotonic()
        ids = quaver.AddTracks(uris, 'end', False, timeout=600)
        added = time.monotonic() - t
        t = time.monotonic()
        tracks, current = quaver.GetQueue(timeout=600)
        open(\(pythonString(list + ".done")), 'w').close()
        print('%d %.1f %d %.1f' % (len(ids), added * 1000, len(tracks), (time.monotonic() - t) * 1000))
        """], environment: service.bus.environment, logDirectory: service.bus.directory.url, name: "adder")
        XCTAssertTrue(pump(until: { !pinger.isRunning && !adder.isRunning }, timeout: 900))
        XCTAssertEqual(adder.process.terminationStatus, 0, adder.standardError)
        XCTAssertEqual(pinger.process.terminationStatus, 0, pinger.standardError)
        let added = adder.standardOutput.split(whereSeparator: \.isWhitespace)
        let pings = pinger.standardOutput.split(whereSeparator: \.isWhitespace)
        XCTAssertEqual(added.first, "\(count)")
        XCTAssertEqual(service.player.tracks.count, count)
        guard added.count == 4, pings.count == 2 else { return XCTFail("\(adder.standardOutput) \(pinger.standardOutput)") }
        print("AddTracks(\(count)): \(added[1]) ms; GetQueue(\(added[2])): \(added[3]) ms; "
              + "concurrent Get: \(pings[0]) calls, longest \(pings[1]) ms")
        XCTAssertLessThan(Double(pings[1]) ?? .infinity, 60_000, "the service stopped answering for a minute")
    }
}
