import DBus
import Foundation
import TestSupport
import XCTest

/// `make install-files` / `make uninstall` with a PREFIX: every file lands under it, the unit and the
/// activation file name the installed daemon, and uninstall leaves nothing behind.
final class InstallTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    func testInstallFollowsPrefixAndUninstallRemovesEverything() throws {
        let prefix = try TemporaryDirectory(prefix: "quaver-prefix")
        let make = { (target: String) throws -> Int32 in
            let result = try ChildProcess.run("make", ["-C", Self.repository.path, target, "PREFIX=\(prefix.path)",
                                                       "BUILD=\(productsDirectory.path)"], timeout: 60)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.status
        }
        XCTAssertEqual(try make("install-files"), 0)
        let expected = ["bin/quaverd", "bin/quaver", "bin/quaver-snapcast-plugin", "share/man/man1/quaver-snapcast-plugin.1",
                        "libexec/quaver/swift-backtrace", "lib/quaver/libquaver-taglib.so", "share/systemd/user/quaverd.service",
                        "share/dbus-1/services/org.mpris.MediaPlayer2.quaver.service",
                        "share/applications/quaver.desktop", "share/bash-completion/completions/quaver",
                        "share/applications/org.quaver.Quaver.desktop",
                        "share/gnome-shell/search-providers/org.quaver.Quaver.search-provider.ini",
                        "share/zsh/site-functions/_quaver", "share/fish/vendor_completions.d/quaver.fish",
                        "share/man/man1/quaver.1", "share/man/man1/quaverd.1", "share/doc/quaver/config.example.toml"]
        for file in expected {
            XCTAssertTrue(FileManager.default.fileExists(atPath: prefix.path + "/" + file), "\(file) not installed")
        }
        let unit = try String(contentsOfFile: prefix.path + "/share/systemd/user/quaverd.service", encoding: .utf8)
        XCTAssertTrue(unit.contains("\nExecStart=\(prefix.path)/bin/quaverd\n"), unit)
        XCTAssertTrue(unit.contains("\nType=dbus\n") && unit.contains("\nBusName=org.mpris.MediaPlayer2.quaver\n"))
        let activation = try String(contentsOfFile: prefix.path
            + "/share/dbus-1/services/org.mpris.MediaPlayer2.quaver.service", encoding: .utf8)
        XCTAssertTrue(activation.contains("\nExec=\(prefix.path)/bin/quaverd\n"), activation)
        XCTAssertTrue(activation.contains("\nSystemdService=quaverd.service"), activation)
        let completion = try String(contentsOfFile: prefix.path + "/share/bash-completion/completions/quaver",
                                    encoding: .utf8)
        XCTAssertTrue(completion.contains("status"), "bash completion lists the subcommands")

        XCTAssertEqual(try make("uninstall"), 0)
        for file in expected {
            XCTAssertFalse(FileManager.default.fileExists(atPath: prefix.path + "/" + file), "\(file) left behind")
        }
    }

    /// A crash leaves its reason in the log: with the environment the installed unit gives it, the
    /// installed daemon hit by SIGSEGV writes every thread's backtrace to stderr (the journal) as it dies.
    func testTheInstalledUnitMakesACrashWriteABacktrace() throws {
        let prefix = try TemporaryDirectory(prefix: "quaver-prefix")
        let installed = try ChildProcess.run("make", ["-C", Self.repository.path, "install-files", "PREFIX=\(prefix.path)",
                                                      "BUILD=\(productsDirectory.path)"], timeout: 60)
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let unit = try String(contentsOfFile: prefix.path + "/share/systemd/user/quaverd.service", encoding: .utf8)
        let setting = "Environment=SWIFT_BACKTRACE="
        guard let line = unit.split(separator: "\n").first(where: { $0.hasPrefix(setting) }) else {
            return XCTFail("the unit sets no SWIFT_BACKTRACE: \(unit)")
        }
        let backtrace = String(line.dropFirst(setting.count))
        XCTAssertTrue(backtrace.contains("swift-backtrace=\(prefix.path)/libexec/quaver/swift-backtrace"), backtrace)

        let bus = try PrivateBus()
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        var environment = RunningDaemon.environment(bus: bus, home: home)
        environment["SWIFT_BACKTRACE"] = backtrace
        let daemon = try ChildProcess(prefix.path + "/bin/quaverd", ["--output", "fakesink"], environment: environment,
                                      logDirectory: home.url)
        let client = try Connection(address: bus.address)
        XCTAssertTrue(eventually(timeout: 20) { RunningDaemon.hasOwner(client) }, daemon.standardError)
        daemon.send(SIGSEGV)
        // Symbolicating a debug build's threads takes a while: the crash line and the crashed thread's
        // frames come first, which is what the log must have.
        XCTAssertTrue(eventually(timeout: 60) { daemon.standardError.contains("crashed:") }, daemon.standardError)
        XCTAssertTrue(daemon.standardError.contains("*** Program crashed"), daemon.standardError)
    }
}
