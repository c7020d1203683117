import ControlAPI
import DBus
import EventLoop
import Foundation
import TestSupport
import XCTest

/// The real quaverd on a private bus, with its own cache, state, config and home in a temporary folder,
/// playing into `fakesink sync=true` (real time, no sound server), driven by an in-process client and playerctl.
final class RunningDaemon {
    static let path = ObjectPath(stringLiteral: ControlAPI.objectPath)
    static var executable: String { productsDirectory.appendingPathComponent("quaverd").path }

    let bus: PrivateBus
    let home: TemporaryDirectory
    let process: ChildProcess
    let client: Connection

    /// Starts quaverd with `items` queued and waits until it owns its name. Passing the `home` of an
    /// earlier daemon starts it again on the same state and settings.
    /// `environment` adds to (or overrides) the variables the daemon gets, e.g. DBUS_SYSTEM_BUS_ADDRESS.
    /// `launcher` is a command that runs quaverd (its path follows), such as `withoutOverridingPermissions`.
    init(_ items: [String] = [], bus: PrivateBus? = nil, home: TemporaryDirectory? = nil,
         options: [String] = ["--output", "fakesink sync=true"], environment: [String: String] = [:],
         launcher: [String] = []) throws {
        self.bus = try bus ?? PrivateBus()
        self.home = try home ?? TemporaryDirectory(prefix: "quaverd-home")
        let command = launcher + [RunningDaemon.executable] + options + items
        process = try ChildProcess(command[0], Array(command.dropFirst()),
                                   environment: RunningDaemon.environment(bus: self.bus, home: self.home)
                                       .merging(environment) { $1 },
                                   logDirectory: self.home.url, name: "quaverd")
        client = try Connection(address: self.bus.address)
        let client = client, process = process
        guard eventually(timeout: 20, { !process.isRunning || RunningDaemon.hasOwner(client) }), process.isRunning else {
            throw TestHarnessError("quaverd did not take its name: \(process.standardError)")
        }
    }

    /// The launcher under which file permissions hold for quaverd: none for a user; as root (the tests' usual
    /// case), setpriv(1) dropping from its bounding set the capabilities that let root read and write any file.
    /// Skips the test when neither works.
    static func withoutOverridingPermissions() throws -> [String] {
        guard getuid() == 0 else { return [] }
        let launcher = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"]
        let tried = try? ChildProcess.run(launcher[0], Array(launcher.dropFirst()) + ["true"])
        guard tried?.status == 0 else { throw XCTSkip("setpriv cannot drop root's file capabilities here: \(tried?.stderr ?? "")") }
        return launcher
    }

    /// A home for `init(home:)` whose config.toml holds `settings`.
    static func home(settings: String) throws -> TemporaryDirectory {
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        let folder = home.url.appendingPathComponent("config/quaver")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try settings.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        return home
    }

    static func environment(bus: PrivateBus, home: TemporaryDirectory) -> [String: String] {
        bus.daemonEnvironment(home: home.path)
    }

    static func hasOwner(_ client: Connection) -> Bool {
        let reply = try? client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                     interface: "org.freedesktop.DBus", method: "NameHasOwner", arguments: [.string(ControlAPI.busName)])
        return reply?.first?.boolValue == true
    }

    var artDirectory: URL { home.url.appendingPathComponent("cache/quaver/art") }

    // MARK: Client calls

    @discardableResult
    func call(_ method: String, _ arguments: [DBusValue] = [], on interface: String = ControlAPI.playerInterface) throws
        -> [DBusValue] {
        try client.call(destination: ControlAPI.busName, path: RunningDaemon.path, interface: interface,
                        method: method, arguments: arguments, timeout: 10)
    }

    func get(_ property: String, _ interface: String = ControlAPI.playerInterface) throws -> DBusValue {
        try call("Get", [.string(interface), .string(property)], on: ControlAPI.propertiesInterface)[0].unwrapped
    }

    func set(_ property: String, _ value: DBusValue, _ interface: String = ControlAPI.playerInterface) throws {
        try call("Set", [.string(interface), .string(property), .variant(value)], on: ControlAPI.propertiesInterface)
    }

    func getAll(_ interface: String = ControlAPI.playerInterface) throws -> [String: DBusValue] {
        try call("GetAll", [.string(interface)], on: ControlAPI.propertiesInterface)[0].dictionaryValue ?? [:]
    }

    /// The current Metadata with its variants unwrapped (the values keep their D-Bus types).
    var metadata: [String: DBusValue] { ((try? get(PlayerProperty.metadata).dictionaryValue) ?? [:]).mapValues(\.unwrapped) }
    var status: String? { try? get(PlayerProperty.playbackStatus).stringValue }
    var tracks: [String] { (try? get("Tracks", ControlAPI.trackListInterface).stringArrayValue) ?? [] }
    var currentTrack: String? { metadata[MetadataKey.trackID]?.stringValue }
    var positionSeconds: Double { Double((try? get(PlayerProperty.position).int64Value) ?? -1) / 1_000_000 }

    /// Waits until `condition` holds (the daemon works in another process).
    func waitUntil(_ what: String, timeout: Double = 10, _ condition: () -> Bool,
                   file: StaticString = #filePath, line: UInt = #line) {
        guard !eventually(timeout: timeout, condition) else { return }
        XCTFail("timed out waiting for \(what); quaverd's log ends:\n\(logTail)", file: file, line: line)
    }

    /// The last lines quaverd wrote, for failure messages (a CI run shows nothing else of the daemon); all of
    /// them once it has died, so that the Swift runtime's crash report (every thread's stack) is shown whole.
    var logTail: String {
        let log = process.standardError
        guard process.isRunning else { return log }
        return log.split(separator: "\n", omittingEmptySubsequences: false).suffix(40).joined(separator: "\n")
    }

    // MARK: playerctl

    /// Runs `playerctl -p quaver <arguments>` against this bus; returns trimmed standard output.
    @discardableResult
    func playerctl(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try ChildProcess.run("playerctl", ["-p", "quaver"] + arguments, environment: bus.environment,
                                          timeout: 20)
        XCTAssertEqual(result.status, 0, "playerctl \(arguments) failed: \(result.stderr)", file: file, line: line)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs the `quaver` CLI's `command` on this bus (`--bus-address` follows the command's name).
    func quaver(_ command: String, _ arguments: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(productsDirectory.appendingPathComponent("quaver").path,
                             [command, "--bus-address", bus.address] + arguments, environment: bus.environment, timeout: 20)
    }

    /// The daemon still answers, with the queue it had.
    func assertIntact(tracks expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(process.isRunning, "quaverd died: \(process.standardError)", file: file, line: line)
        XCTAssertEqual(tracks, expected, "queue changed", file: file, line: line)
        XCTAssertEqual((try? getAll())?.isEmpty, false, "GetAll(Player) failed", file: file, line: line)
    }

    deinit {
        client.close()
        process.stop()
    }
}

/// Media for daemon tests: the shared fixtures plus a long tone (for `position 30`) and an untagged file.
enum Media {
    static func fixtures() throws -> Fixtures { try Fixtures.shared() }

    /// 60 s of tone, untagged: long enough for absolute positions past 30 s.
    static func longTone() throws -> URL {
        let url = try fixtures().directory.appendingPathComponent("long tone.flac")
        if !FileManager.default.fileExists(atPath: url.path) {
            try Fixtures.run("sox", ["-q", "-n", "-r", "22050", "-c", "1", url.path, "synth", "60", "sine", "330",
                                     "vol", "0.3"])
        }
        return url
    }

    static func uri(_ url: URL) -> String { url.absoluteString }

    /// 30 s tagged FLACs with the fixtures' cover, `track-1.flac`… in `folder`, one per title.
    static func taggedTracks(_ titles: [String], artist: String, album: String, in folder: TemporaryDirectory) throws -> [URL] {
        try titles.enumerated().map { index, title in
            let url = folder.url.appendingPathComponent("track-\(index + 1).flac")
            try fixtures().taggedFLAC(at: url, title: title, artist: artist, album: album, seconds: 30)
            return url
        }
    }
}
