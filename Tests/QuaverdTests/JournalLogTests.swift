import DBus
import Foundation
import TestSupport
import XCTest

/// quaverd started as systemd starts a unit whose stderr is the journal (JOURNAL_STREAM = stderr's
/// device:inode) writes `<priority>` lines without timestamps; started from a shell it keeps timestamps.
final class JournalLogTests: XCTestCase {
    func startDaemon(journal: Bool, environment extra: (TemporaryDirectory) throws -> [String: String] = { _ in [:] })
        throws -> (ChildProcess, TemporaryDirectory)
    {
        let bus = try PrivateBus()
        let home = try TemporaryDirectory(prefix: "quaverd-journal")
        let environment = RunningDaemon.environment(bus: bus, home: home).merging(try extra(home)) { $1 }
        // `stat` runs with the shell's stderr, which `exec` hands on to quaverd.
        let script = (journal ? "JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) && export JOURNAL_STREAM && " : "")
            + "exec \"$0\" --output 'fakesink sync=true' nope://not-a-track"
        let daemon = try ChildProcess("/bin/sh", ["-c", script, RunningDaemon.executable],
                                      environment: environment, logDirectory: home.url)
        let client = try Connection(address: bus.address)
        XCTAssertTrue(eventually(timeout: 20, { RunningDaemon.hasOwner(client) }), daemon.standardError)
        XCTAssertTrue(eventually(timeout: 20, { daemon.standardError.contains("not queued") }), daemon.standardError)
        daemon.stop()
        return (daemon, home)
    }

    func testUnderSystemdEachLineHasItsPriorityAndNoTimestamp() throws {
        let (daemon, home) = try startDaemon(journal: true)
        defer { _ = home }  // the log files live in it
        let lines = daemon.standardError.split(separator: "\n")
        XCTAssertFalse(lines.isEmpty)
        for line in lines {
            XCTAssertNotNil(line.range(of: #"^<[2-7]>[a-z.]+: "#, options: .regularExpression), String(line))
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("<3>quaverd: not queued: nope://not-a-track") }, daemon.standardError)
        XCTAssertTrue(lines.contains { $0.hasPrefix("<6>quaverd: sound output: fakesink") }, daemon.standardError)
    }

    func testOnATerminalLinesKeepTheirTimestamp() throws {
        let (daemon, home) = try startDaemon(journal: false)
        defer { _ = home }
        let error = daemon.standardError.split(separator: "\n").first { $0.contains("not queued") }
        XCTAssertNotNil(error?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} error quaverd: \[quaverd\] not queued"#,
                                     options: .regularExpression), daemon.standardError)
    }

    /// GStreamer's own warning (a broken plugin file, loaded in-process with a fresh registry) arrives as one
    /// of our lines, at warning priority, instead of GLib's `GStreamer-WARNING **` line.
    func testALibraryWarningBecomesOneOfOurLines() throws {
        let (daemon, home) = try startDaemon(journal: true) { home in
            let plugins = home.url.appendingPathComponent("plugins")
            try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
            try Data("not a shared object".utf8).write(to: plugins.appendingPathComponent("libgstbroken.so"))
            return ["GST_PLUGIN_PATH": plugins.path, "GST_REGISTRY_FORK": "no",
                    "GST_REGISTRY": home.url.appendingPathComponent("registry.bin").path]
        }
        defer { _ = home }
        let lines = daemon.standardError.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.hasPrefix("<4>quaverd: GStreamer: Failed to load plugin") && $0.contains("libgstbroken.so") },
                      daemon.standardError)
        XCTAssertFalse(daemon.standardError.contains("GStreamer-WARNING"), daemon.standardError)
    }
}
