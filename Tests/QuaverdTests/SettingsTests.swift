import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// Writes `config.toml` into a daemon home ($XDG_CONFIG_HOME/quaver, as RunningDaemon sets it).
enum Settings {
    static func write(_ text: String, home: TemporaryDirectory) throws {
        let folder = home.url.appendingPathComponent("config/quaver")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    }
}

/// config.toml as the daemon reads it: refused files stop it with status 2, accepted ones take effect.
final class SettingsTests: XCTestCase {
    /// Runs quaverd to its exit (a refused file stops it before it touches the bus).
    private func runDaemon(_ arguments: [String], home: TemporaryDirectory) throws -> (status: Int32, stderr: String) {
        let bus = try PrivateBus()
        let result = try ChildProcess.run(RunningDaemon.executable, arguments,
                                          environment: RunningDaemon.environment(bus: bus, home: home), timeout: 20)
        return (result.status, result.stderr)
    }

    func testAnUnknownKeyStopsTheDaemonWithStatus2NamingFileAndKey() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        try Settings.write("[audio]\noutput = \"fakesink\"\nvolume = 3\n", home: home)
        let result = try runDaemon(["--output", "fakesink sync=true"], home: home)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("config/quaver/config.toml: audio.volume: unknown key"), result.stderr)
    }

    func testABadValueStopsTheDaemonWithStatus2() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        try Settings.write("[playback]\nresume-on-start = \"yes\"\n", home: home)
        let result = try runDaemon([], home: home)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("playback.resume-on-start: expected true or false"), result.stderr)
    }

    func testConfigOptionNamesAnotherFile() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let other = home.url.appendingPathComponent("other.toml")
        try "[log]\nlevel = \"loud\"\n".write(to: other, atomically: true, encoding: .utf8)
        let refused = try runDaemon(["--config", other.path], home: home)
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("other.toml: log.level"), refused.stderr)
        let missing = try runDaemon(["--config", home.path + "/nowhere.toml"], home: home)
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("nowhere.toml"), missing.stderr)
    }

    /// A daemon started with `settings` as its config.toml, once its object answers (the sound output
    /// is chosen and logged before the object is exported).
    private func daemon(settings: String, _ items: [String] = [],
                        options: [String] = ["--output", "fakesink sync=true"]) throws -> RunningDaemon {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        try Settings.write(settings, home: home)
        let daemon = try RunningDaemon(items, home: home, options: options)
        _ = try daemon.getAll()
        return daemon
    }

    func testTheConfiguredOutputIsUsedAndPlays() throws {
        let daemon = try daemon(settings: "[audio]\noutput = \"fakesink sync=true name=configured\"\n",
                                [try Media.longTone().path], options: [])
        XCTAssertTrue(daemon.process.standardError.contains("sound output: fakesink sync=true name=configured"),
                      daemon.process.standardError)
        try daemon.call("Play")
        daemon.waitUntil("the position advances") { daemon.positionSeconds > 1 }
    }

    func testTheOutputOptionOverridesTheFile() throws {
        let daemon = try daemon(settings: "[audio]\noutput = \"no-such-sink-element\"\n")
        XCTAssertTrue(daemon.process.standardError.contains("sound output: fakesink sync=true"), daemon.process.standardError)
    }

    func testLogLevelWarningHidesInfo() throws {
        let daemon = try daemon(settings: "[log]\nlevel = \"warning\"\n")
        XCTAssertFalse(daemon.process.standardError.contains("sound output"), daemon.process.standardError)
    }

    func testReplayGainTrackModeLowersATrackByItsTaggedGain() throws {
        let music = try TemporaryDirectory(prefix: "replaygain-music")
        let tagged = music.url.appendingPathComponent("tagged.flac")
        try FileManager.default.copyItem(at: try Media.fixtures().flac, to: tagged)
        try Fixtures.run("metaflac", ["--set-tag=REPLAYGAIN_TRACK_GAIN=-6.00 dB", "--set-tag=REPLAYGAIN_TRACK_PEAK=0.5",
                                      tagged.path])
        let written = music.url.appendingPathComponent("out.wav")
        let daemon = try daemon(settings: "[playback]\nreplaygain = \"track\"\nresume-on-start = false\n", [tagged.path],
                                options: ["--play", "--output",
                                          "audioconvert ! audio/x-raw,format=S16LE ! wavenc ! filesink location=\"\(written.path)\""])
        daemon.waitUntil("played to the end", timeout: 30) {
            daemon.status == "Stopped" && ((try? FileManager.default.attributesOfItem(atPath: written.path)[.size] as? Int) ?? 0) > 1_000_000
        }
        let samples = try wavSamples(written)
        let meanSquare = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
        // The fixture is a sine at 0.5 of full scale: −9.03 dB RMS, −6 dB more by its tag.
        XCTAssertEqual(10 * log10(meanSquare / (32768.0 * 32768.0)), -15.05, accuracy: 0.1)
    }

    /// Two tracks of one album, then one of another, all tagged track −6 dB and album −10 dB: "auto" plays the
    /// album's two at the album gain and the lone one at its track gain (tags read in the background decide;
    /// the test plays once they are read, so a loaded machine cannot make them late).
    func testReplayGainAutoTakesTheAlbumGainWithinAnAlbumAndTheTrackGainAlone() throws {
        let music = try TemporaryDirectory(prefix: "replaygain-auto")
        let files = try [("a1", "One"), ("a2", "One"), ("b", "Two")].map { name, album in
            let url = music.url.appendingPathComponent("\(name).flac")
            try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", url.path, "synth", "3", "sine", "440",
                                     "vol", "0.25"])
            try Fixtures.run("metaflac", ["--set-tag=ALBUM=\(album)", "--set-tag=ARTIST=Band",
                                          "--set-tag=REPLAYGAIN_TRACK_GAIN=-6.00 dB", "--set-tag=REPLAYGAIN_TRACK_PEAK=0.25",
                                          "--set-tag=REPLAYGAIN_ALBUM_GAIN=-10.00 dB", "--set-tag=REPLAYGAIN_ALBUM_PEAK=0.25",
                                          url.path])
            return url
        }
        let written = music.url.appendingPathComponent("out.wav")
        let daemon = try daemon(settings: "[playback]\nreplaygain = \"auto\"\nresume-on-start = false\n", files.map(\.path),
                                // In real time (a synchronised fakesink beside the file), as heard.
                                options: ["--output", "tee name=split ! queue ! fakesink sync=true split. ! queue ! "
                                          + "audioconvert ! audio/x-raw,format=S16LE ! wavenc ! filesink location=\"\(written.path)\""])
        let paths = daemon.tracks.compactMap { try? ObjectPath($0) }
        XCTAssertEqual(paths.count, 3)
        daemon.waitUntil("every album read", timeout: 20) {
            let reply = try? daemon.call("GetTracksMetadata", [.objectPathArray(paths)], on: ControlAPI.trackListInterface)
            let albums = (reply?.first?.arrayValue ?? []).map { $0.dictionaryValue?["xesam:album"]?.unwrapped.stringValue }
            return albums == ["One", "One", "Two"]
        }
        _ = try daemon.call("Play")
        daemon.waitUntil("played to the end", timeout: 30) {
            daemon.status == "Stopped" && ((try? FileManager.default.attributesOfItem(atPath: written.path)[.size] as? Int) ?? 0) > 1_000_000
        }
        let samples = try wavSamples(written)
        let frames = 3 * 44_100 * 2
        XCTAssertEqual(samples.count, 3 * frames, accuracy: 4096)
        // The last second of each track; a sine at 0.25 is −15.05 dB RMS before the gain.
        func level(ofTrack index: Int) -> Double {
            let end = min(samples.count, (index + 1) * frames)
            let window = samples[(end - 88_200)..<end]
            let meanSquare = window.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(window.count)
            return 10 * log10(meanSquare / (32768.0 * 32768.0)) + 15.05
        }
        XCTAssertEqual(level(ofTrack: 0), -10, accuracy: 0.1, "followed by its album")
        XCTAssertEqual(level(ofTrack: 1), -10, accuracy: 0.1, "preceded by its album")
        XCTAssertEqual(level(ofTrack: 2), -6, accuracy: 0.1, "alone")
    }
}
