import DBus
import Foundation
import TestSupport
import XCTest

/// The sleep timer's fade heard where it matters: the volume of quaverd's stream at the sound server goes
/// down over the last seconds, playback pauses, and the stream's volume is back afterwards, while MPRIS
/// Volume never moves.
final class SleepFadeOnPulseAudioTests: DaemonSoundServerChecks {
    override func makeServer() throws -> SoundServerRig { try PulseAudioServer() }

    /// Our stream's volume at the server, 0…1 (the first channel, from `pactl -f json list sink-inputs`).
    var streamVolume: Double? {
        guard let listed = try? sound.pactl(["-f", "json", "list", "sink-inputs"]), listed.status == 0,
              let items = try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]],
              let ours = items.first(where: { ($0["properties"] as? [String: String])?["application.process.id"] == String(daemon.pid) }),
              let channels = ours["volume"] as? [String: [String: Any]], let first = channels.values.first,
              let value = first["value"] as? Int else { return nil }
        return Double(value) / 65536
    }

    func testTheStreamFadesOutPausesAndGetsItsVolumeBack() throws {
        assertPlaysOn("before")
        let start = try XCTUnwrap(streamVolume)
        _ = try client.call(destination: "org.mpris.MediaPlayer2.quaver", path: "/org/mpris/MediaPlayer2",
                            interface: "org.quaver.Quaver1", method: "SetSleepTimer", arguments: [.string("time"), .int64(12)])
        var lowest = start
        XCTAssertTrue(eventually(timeout: 20) {
            if let now = self.streamVolume { lowest = min(lowest, now) }
            return self.status == "Paused"
        })
        print("sleep fade: stream volume \(String(format: "%.2f", start)) → lowest \(String(format: "%.3f", lowest)) before the pause")
        XCTAssertLessThan(lowest, start * 0.3, "the stream was faded out")
        XCTAssertTrue(eventually(timeout: 5) { (self.streamVolume ?? 0) > start * 0.95 }, "the volume is back: \(String(describing: streamVolume))")
        XCTAssertEqual(property("Volume")?.doubleValue, 1, "MPRIS Volume never moved")
    }
}
