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

    func testTheConfiguredOutputIsUsedAndPlays() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        try Settings.write("[audio]\noutput = \"fakesink sync=true name=configured\"\n", home: home)
        let daemon = try RunningDaemon([try Media.longTone().path], home: home, options: [])
        _ = try daemon.getAll()  // answered once the object is exported, after the output is chosen
        XCTAssertTrue(daemon.process.standardError.contains("sound output: fakesink sync=true name=configured"),
                      daemon.process.standardError)
        try daemon.call("Play")
        daemon.waitUntil("the position advances") { daemon.positionSeconds > 1 }
    }

    func testTheOutputOptionOverridesTheFile() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        try Settings.write("[audio]\noutput = \"no-such-sink-element\"\n", home: home)
        let daemon = try RunningDaemon(home: home)
        _ = try daemon.getAll()
        XCTAssertTrue(daemon.process.standardError.contains("sound output: fakesink sync=true"), daemon.process.standardError)
    }

    func testLogLevelWarningHidesInfo() throws {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        try Settings.write("[log]\nlevel = \"warning\"\n", home: home)
        let daemon = try RunningDaemon(home: home)
        _ = try daemon.getAll()
        XCTAssertFalse(daemon.process.standardError.contains("sound output"), daemon.process.standardError)
    }
}
