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
}
