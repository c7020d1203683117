import Foundation
import TestSupport
import XCTest

/// The installed systemd unit and desktop entry as their own tools read them: `systemd-analyze verify`
/// (no warning at all: systemd ignores settings it cannot parse, with a warning only) and
/// `desktop-file-validate`; the desktop entry's icon is one the Adwaita theme has.
final class ServiceFilesTests: XCTestCase {
    var prefix: TemporaryDirectory!

    override func setUpWithError() throws {
        prefix = try TemporaryDirectory(prefix: "quaver-service-files")
        let result = try ChildProcess.run("make", ["-C", InstallTests.repository.path, "install-files",
                                                   "PREFIX=\(prefix.path)", "BUILD=\(productsDirectory.path)"], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    override func tearDown() { prefix = nil }

    func testTheUnitVerifiesWithoutWarnings() throws {
        let unit = prefix.path + "/share/systemd/user/quaverd.service"
        let runtime = try TemporaryDirectory(prefix: "quaver-runtime")  // a user manager needs XDG_RUNTIME_DIR
        // --man=no: the man page is checked by the package test, where it is installed where man finds it.
        let result = try ChildProcess.run("/usr/bin/systemd-analyze", ["--user", "verify", "--man=no", unit],
                                          environment: ["XDG_RUNTIME_DIR": runtime.path, "PATH": "/usr/bin:/bin"],
                                          timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "systemd-analyze warned")
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        for line in ["RestartPreventExitStatus=2", "Documentation=man:quaverd(1)", "NoNewPrivileges=yes",
                     "WantedBy=default.target"] {
            XCTAssertTrue(text.contains("\n\(line)\n"), line)
        }
        XCTAssertFalse(text.contains("\nMemoryDenyWriteExecute="), "ORC needs writable+executable memory")
        XCTAssertFalse(text.contains("graphical-session.target"), "one install target")
    }

    func testTheDesktopEntryValidatesAndItsIconIsInAdwaita() throws {
        let entry = prefix.path + "/share/applications/quaver.desktop"
        let result = try ChildProcess.run("/usr/bin/desktop-file-validate", [entry], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout + result.stderr, "")
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        XCTAssertTrue(text.contains("\nExec=\(prefix.path)/bin/quaver add --play %U\n"), "adds, never replaces the queue")
        XCTAssertTrue(text.contains("\nStartupNotify=false\n"))
        let icon = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("Icon=") }?.dropFirst(5))
        let found = FileManager.default.enumerator(atPath: "/usr/share/icons/Adwaita")?
            .contains { ($0 as? String).map { ($0 as NSString).lastPathComponent.hasPrefix(icon + ".") } == true }
        XCTAssertEqual(found, true, "\(icon) is not in /usr/share/icons/Adwaita")
    }

    /// The search provider's entry: valid, and shown (GNOME Shell lists no provider whose entry is hidden).
    func testTheSearchProviderEntryValidatesAndIsShownInGNOME() throws {
        let entry = prefix.path + "/share/applications/org.quaver.Quaver.desktop"
        let result = try ChildProcess.run("/usr/bin/desktop-file-validate", [entry], timeout: 60)
        XCTAssertEqual(result.stdout + result.stderr, "")
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        XCTAssertTrue(text.contains("\nExec=\(prefix.path)/bin/quaver play\n"), text)
        XCTAssertFalse(text.contains("NoDisplay=true"))
        let provider = try String(contentsOfFile: prefix.path
            + "/share/gnome-shell/search-providers/org.quaver.Quaver.search-provider.ini", encoding: .utf8)
        XCTAssertTrue(provider.contains("\nDesktopId=org.quaver.Quaver.desktop\n"), provider)
    }
}
