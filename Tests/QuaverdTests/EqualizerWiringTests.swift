import ControlAPI
import DBus
import EventLoop
import Foundation
import TestSupport
import XCTest

/// The equaliser in the real quaverd: `Equalizer` and `EqualizerPreset` on org.quaver.Quaver1 (set, signalled,
/// refused with InvalidArgs and nothing changed), the user's preset files (hostile ones left out), `quaver eq`,
/// and the setting kept across a restart.
final class EqualizerWiringTests: XCTestCase {
    private func start(home: TemporaryDirectory? = nil) throws -> RunningDaemon {
        try RunningDaemon([Media.uri(try Media.longTone())], home: home, options: ["--output", "fakesink sync=true", "--play"])
    }

    private func equalizer(_ daemon: RunningDaemon) -> [Double]? {
        (try? daemon.get(QuaverProperty.equalizer, ControlAPI.quaverInterface).arrayValue)?.compactMap(\.doubleValue)
    }

    private func preset(_ daemon: RunningDaemon) -> String? {
        try? daemon.get(QuaverProperty.equalizerPreset, ControlAPI.quaverInterface).stringValue
    }

    private static let minusSixAt1k: [Double] = [-2, 0, 0, 0, 0, 0, -6, 0, 0, 0, 0]

    func testGainsSetOnTheBusAreSignalledAndReadBack() throws {
        let daemon = try start()
        daemon.waitUntil("playing", { daemon.status == "Playing" })
        XCTAssertEqual(equalizer(daemon), [], "off at first")
        XCTAssertEqual(preset(daemon), "off")
        var signalled: [String: DBusValue] = [:]
        let subscription = try daemon.client.subscribe(rule: MatchRule(interface: ControlAPI.propertiesInterface,
                                                                      member: "PropertiesChanged", arg0: ControlAPI.quaverInterface)) {
            signalled.merge(($0.arguments[1].dictionaryValue ?? [:]).mapValues(\.unwrapped)) { $1 }
        }
        defer { subscription.cancel() }
        try daemon.set(QuaverProperty.equalizer, .array(element: "d", Self.minusSixAt1k.map(DBusValue.double)), ControlAPI.quaverInterface)
        XCTAssertTrue(EventLoop.main.run(until: { signalled[QuaverProperty.equalizerPreset] != nil }, timeout: 5))
        XCTAssertEqual(signalled[QuaverProperty.equalizer]?.arrayValue?.compactMap(\.doubleValue), Self.minusSixAt1k)
        XCTAssertEqual(signalled[QuaverProperty.equalizerPreset]?.stringValue, "custom")
        XCTAssertEqual(equalizer(daemon), Self.minusSixAt1k)
        try daemon.set(QuaverProperty.equalizerPreset, .string("bass"), ControlAPI.quaverInterface)
        XCTAssertEqual(preset(daemon), "bass")
        XCTAssertEqual(equalizer(daemon)?.count, 11)
        try daemon.set(QuaverProperty.equalizer, .array(element: "d", []), ControlAPI.quaverInterface)
        XCTAssertEqual(preset(daemon), "off", "no values: off")
        XCTAssertEqual(daemon.status, "Playing", "the music went on through every change")
    }

    func testBadValuesAreRefusedAndChangeNothing() throws {
        let daemon = try start()
        daemon.waitUntil("playing", { daemon.status == "Playing" })
        try daemon.set(QuaverProperty.equalizerPreset, .string("treble"), ControlAPI.quaverInterface)
        let before = equalizer(daemon)
        let flat = Array(repeating: 0.0, count: 11)
        var bad: [(String, DBusValue)] = [
            ("five values", .array(element: "d", Array(repeating: .double(0), count: 5))),
            ("twelve values", .array(element: "d", Array(repeating: .double(0), count: 12))),
            ("a string", .string("loud")),
            ("integers", .array(element: "i", Array(repeating: .int32(0), count: 11))),
        ]
        for (index, value) in [Double.nan, .infinity, 30, -24.5, 12.01] .enumerated() {
            var values = flat
            values[index % 11] = value
            bad.append(("\(value) at \(index)", .array(element: "d", values.map(DBusValue.double))))
        }
        for (what, value) in bad {
            XCTAssertThrowsError(try daemon.set(QuaverProperty.equalizer, value, ControlAPI.quaverInterface), what) {
                XCTAssertEqual(($0 as? DBusError)?.name, "org.freedesktop.DBus.Error.InvalidArgs", what)
            }
        }
        for name in ["", "custom", "no-such-preset", "../../etc/passwd", String(repeating: "x", count: 5000)] {
            XCTAssertThrowsError(try daemon.set(QuaverProperty.equalizerPreset, .string(name), ControlAPI.quaverInterface)) {
                XCTAssertEqual(($0 as? DBusError)?.name, "org.freedesktop.DBus.Error.InvalidArgs", name)
            }
        }
        XCTAssertEqual(equalizer(daemon), before, "nothing changed")
        XCTAssertEqual(preset(daemon), "treble")
        XCTAssertEqual(daemon.status, "Playing")
    }

    func testUserPresetFilesAndTheCLI() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let folder = home.url.appendingPathComponent("config/quaver/eq")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        try write("warm.toml", "preamp = -3\nbands = [4, 3, 2, 0, 0, 0, 0, -1, -2, -3]\n")
        try write("Bad Name.toml", "bands = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n")
        try write("nine.toml", "bands = [0, 0, 0, 0, 0, 0, 0, 0, 0]\n")
        try write("loud.toml", "bands = [40, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n")
        try write("notanumber.toml", "bands = [nan, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n")
        try write("typo.toml", "bandz = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n")
        try write("huge.toml", "bands = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n" + String(repeating: "# padding\n", count: 2000))
        try write("bass.toml", "bands = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n")
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("linked.toml"),
                                                   withDestinationURL: folder.appendingPathComponent("warm.toml"))
        let daemon = try start(home: home)
        daemon.waitUntil("playing", { daemon.status == "Playing" })
        let presets = try daemon.get(QuaverProperty.equalizerPresets, ControlAPI.quaverInterface).arrayValue?.compactMap(\.stringValue)
        XCTAssertEqual(presets, EqualizerPresets.shipped.map(\.name) + ["warm"],
                       "only the usable file, after the shipped presets: \(daemon.process.standardError)")

        let chosen = try daemon.quaver("eq", ["warm"])
        XCTAssertEqual(chosen.status, 0, chosen.stderr)
        XCTAssertTrue(chosen.stdout.contains("equaliser: warm"), chosen.stdout)
        XCTAssertTrue(chosen.stdout.contains("preamp=-3 31=+4 62=+3"), chosen.stdout)
        let banded = try daemon.quaver("eq", ["1k=-6", "preamp=-1.5"])
        XCTAssertEqual(banded.status, 0, banded.stderr)
        XCTAssertEqual(equalizer(daemon), [-1.5, 4, 3, 2, 0, 0, -6, 0, -1, -2, -3], "the other bands kept")
        XCTAssertTrue(banded.stdout.contains("equaliser: custom"), banded.stdout)
        XCTAssertNotEqual(try daemon.quaver("eq", ["1k=-60"]).status, 0)
        XCTAssertNotEqual(try daemon.quaver("eq", ["3k=-6"]).status, 0)
        XCTAssertEqual(equalizer(daemon), [-1.5, 4, 3, 2, 0, 0, -6, 0, -1, -2, -3], "refused changes changed nothing")
        XCTAssertEqual(try daemon.quaver("eq", ["off"]).status, 0)
        XCTAssertEqual(preset(daemon), "off")
        let log = daemon.process.standardError
        for file in ["Bad Name.toml", "nine.toml", "loud.toml", "notanumber.toml", "typo.toml", "huge.toml", "bass.toml", "linked.toml"] {
            XCTAssertTrue(log.contains("equaliser preset left out: ") && log.contains(file), "\(file) is named in the log:\n\(log)")
        }
        XCTAssertEqual(daemon.status, "Playing")
    }

    /// The restored setting reaches the sound: a 1 kHz tone played after a restart with −6 dB on the 1k band is
    /// written 6 dB lower than the file holds.
    func testTheRestoredSettingIsHeard() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let tone = home.url.appendingPathComponent("tone.wav"), written = home.url.appendingPathComponent("out.wav")
        try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", tone.path, "synth", "2", "sine", "1000", "vol", "0.25"])
        var daemon: RunningDaemon? = try RunningDaemon(home: home)
        try daemon?.set(QuaverProperty.equalizer, .array(element: "d", [0, 0, 0, 0, 0, 0, -6, 0, 0, 0, 0].map(DBusValue.double)),
                        ControlAPI.quaverInterface)
        daemon?.process.stop()
        daemon = try RunningDaemon([Media.uri(tone)], home: home, options: [
            "--output", "audioconvert ! audio/x-raw,format=S16LE ! wavenc ! filesink location=\"\(written.path)\"", "--play"])
        daemon?.waitUntil("the tone played to its end", timeout: 20, { daemon?.status == "Stopped" })
        daemon?.process.stop()
        func level(_ samples: [Int16]) -> Double {
            let part = samples.dropFirst(8_820)  // past the filter's first 0.1 s
            return 10 * log10(part.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, part.count)))
        }
        let change = level(try wavSamples(written)) - level(try wavSamples(tone))
        print("equaliser restored after a restart: the 1 kHz tone came out \(String(format: "%.2f", change)) dB")
        XCTAssertEqual(change, -6, accuracy: 0.5)
    }

    func testTheSettingSurvivesARestart() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        var daemon: RunningDaemon? = try start(home: home)
        daemon?.waitUntil("playing", { daemon?.status == "Playing" })
        try daemon?.set(QuaverProperty.equalizer, .array(element: "d", Self.minusSixAt1k.map(DBusValue.double)), ControlAPI.quaverInterface)
        daemon?.process.stop()
        daemon = nil
        daemon = try start(home: home)
        XCTAssertEqual(equalizer(daemon!), Self.minusSixAt1k)
        XCTAssertEqual(preset(daemon!), "custom")
        try daemon?.set(QuaverProperty.equalizerPreset, .string("voice"), ControlAPI.quaverInterface)
        daemon?.process.stop()
        daemon = try start(home: home)
        XCTAssertEqual(preset(daemon!), "voice")
    }
}
