import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// `scripts/package-deb` (what `make deb` runs on the release build): the package's fields and files,
/// lintian, and the installed files working — extracted into a fresh root, the unit verified by systemd
/// against the installed man page, and the installed quaverd driven by the installed quaver on a private bus.
/// By default it packages the debug build the tests run on (seconds; its only lintian errors are the
/// debug build's RUNPATH into the toolchain); QUAVER_DEB_BUILD=.build/release checks the real package.
final class DebianPackageTests: XCTestCase {
    var build: URL {
        ProcessInfo.processInfo.environment["QUAVER_DEB_BUILD"].map {
            URL(fileURLWithPath: $0, relativeTo: InstallTests.repository).standardizedFileURL
        } ?? productsDirectory
    }
    var isReleaseBuild: Bool { ProcessInfo.processInfo.environment["QUAVER_DEB_BUILD"] != nil }

    @discardableResult
    func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil,
             file: StaticString = #filePath, line: UInt = #line) throws -> (out: String, err: String) {
        let result = try ChildProcess.run(tool, arguments, environment: environment, timeout: 300)
        XCTAssertEqual(result.status, 0, "\(tool) \(arguments): \(result.stderr)", file: file, line: line)
        return (result.stdout, result.stderr)
    }

    func testPackageInstallsIntoAFreshRootAndRuns() throws {
        let output = try TemporaryDirectory(prefix: "quaver-deb")
        let deb = try run(InstallTests.repository.path + "/scripts/package-deb", [build.path, output.path]).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let version = try run(build.appendingPathComponent("quaver").path, ["--version"]).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(URL(fileURLWithPath: deb).lastPathComponent, "quaver_\(version)_amd64.deb")

        let field = { (name: String) throws -> String in try self.run("dpkg-deb", ["-f", deb, name]).out }
        XCTAssertEqual(try field("Version"), version + "\n")
        let depends = try field("Depends")
        for package in ["gstreamer1.0-plugins-base", "gstreamer1.0-plugins-good", "libsoup2.4-1", "gstreamer1.0-pulseaudio",
                        "libdbus-1-3", "libpulse0", "libpulse-mainloop-glib0", "libgstreamer1.0-0", "libgstreamer-plugins-base1.0-0",
                        "libc6", "libsqlite3-0", "libcurl4"] {
            XCTAssertTrue(depends.contains(package), "Depends lacks \(package): \(depends)")
        }
        let recommends = try field("Recommends")
        XCTAssertTrue(recommends.contains("gstreamer1.0-plugins-ugly") && recommends.contains("gstreamer1.0-libav"))

        let contents = try run("dpkg-deb", ["-c", deb]).out
        // One program: the daemon and the plugin are links to it (Package.swift, "the release ships one program").
        for link in ["quaverd", "quaver-snapcast-plugin"] {
            XCTAssertTrue(contents.contains(" ./usr/bin/\(link) -> quaver\n"), "\(link) is not a link to quaver: \(contents)")
        }
        for path in ["./usr/bin/quaver", "./usr/lib/quaver/libquaver-taglib.so",
                     "./usr/share/man/man1/quaver-snapcast-plugin.1.gz", "./usr/lib/systemd/user/quaverd.service",
                     "./usr/share/dbus-1/services/org.mpris.MediaPlayer2.quaver.service",
                     "./usr/share/applications/quaver.desktop", "./usr/share/bash-completion/completions/quaver",
                     "./usr/share/applications/org.quaver.Quaver.desktop",
                     "./usr/share/gnome-shell/search-providers/org.quaver.Quaver.search-provider.ini",
                     "./usr/share/zsh/vendor-completions/_quaver", "./usr/share/fish/vendor_completions.d/quaver.fish",
                     "./usr/share/man/man1/quaver.1.gz", "./usr/share/man/man1/quaverd.1.gz",
                     "./usr/share/doc/quaver/copyright", "./usr/share/doc/quaver/config.example.toml"] {
            XCTAssertTrue(contents.contains(" \(path)\n"), "\(path) not in the package")
        }

        try assertLintianClean(deb)
        if isReleaseBuild { try assertLean(deb) }

        let root = try TemporaryDirectory(prefix: "quaver-root")
        try run("dpkg", ["-x", deb, root.path])
        let activation = try String(contentsOfFile: root.path + "/usr/share/dbus-1/services/org.mpris.MediaPlayer2.quaver.service",
                                    encoding: .utf8)
        XCTAssertTrue(activation.contains("\nExec=/usr/bin/quaverd\n"), activation)
        try assertUnitVerifies(root: root)
        try assertInstalledProgramsRun(root: root, version: version)
    }

    /// issue 31's bounds for the release package: at most 12 MB to download and 40 MB installed, and the program
    /// without ICU's data (`icudt…`, 34 MB), which full Foundation would bring back.
    func assertLean(_ deb: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let size = try FileManager.default.attributesOfItem(atPath: deb)[.size] as? Int ?? .max
        XCTAssertLessThanOrEqual(size, 12_000_000, "the .deb", file: file, line: line)
        let installedKiB = Int(try run("dpkg-deb", ["-f", deb, "Installed-Size"]).out.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertLessThanOrEqual(installedKiB ?? .max, 40 * 1024, "Installed-Size", file: file, line: line)
        let root = try TemporaryDirectory(prefix: "quaver-lean")
        try run("dpkg", ["-x", deb, root.path])
        let found = try ChildProcess.run("/bin/grep", ["-c", "icudt", root.path + "/usr/bin/quaver"], timeout: 60)
        XCTAssertEqual(found.status, 1, "quaver carries ICU's data", file: file, line: line)
    }

    /// No lintian error (lintian exits 0 with warnings and information only); the debug build may have
    /// RUNPATH into the toolchain, which a release build does not.
    func assertLintianClean(_ deb: String, file: StaticString = #filePath, line: UInt = #line) throws {
        // lintian leaves a file of its own (`mldbm-elf-*`) in TMPDIR: it gets a folder of ours, removed after it.
        let scratch = try TemporaryDirectory(prefix: "quaver-lintian")
        let environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": scratch.path]) { $1 }
        let result = try withExtendedLifetime(scratch) {
            try ChildProcess.run("/usr/bin/lintian", [deb], environment: environment, timeout: 300)
        }
        let errors = result.stdout.split(separator: "\n").filter { $0.hasPrefix("E: ") }
            .filter { isReleaseBuild || !$0.contains("custom-library-search-path RUNPATH /opt/swift") }
        XCTAssertEqual(errors, [], result.stdout, file: file, line: line)
        if isReleaseBuild { XCTAssertEqual(result.status, 0, result.stdout + result.stderr, file: file, line: line) }
    }

    /// The installed unit with its ExecStart pointed into the root: systemd finds nothing to warn about,
    /// and `man quaverd(1)` of Documentation= resolves to the installed page.
    func assertUnitVerifies(root: TemporaryDirectory) throws {
        let unit = try String(contentsOfFile: root.path + "/usr/lib/systemd/user/quaverd.service", encoding: .utf8)
        XCTAssertTrue(unit.contains("\nExecStart=/usr/bin/quaverd\n"), unit)
        let units = try TemporaryDirectory(prefix: "quaver-unit")
        try unit.replacingOccurrences(of: "ExecStart=/usr/bin/", with: "ExecStart=\(root.path)/usr/bin/")
            .write(toFile: units.path + "/quaverd.service", atomically: true, encoding: .utf8)
        let runtime = try TemporaryDirectory(prefix: "quaver-runtime")
        let verified = try run("/usr/bin/systemd-analyze", ["--user", "verify", units.path + "/quaverd.service"],
                               environment: ["XDG_RUNTIME_DIR": runtime.path, "MANPATH": root.path + "/usr/share/man",
                                             "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(verified.err, "")
        for page in ["quaver", "quaverd"] {
            let rendered = try run("/usr/bin/man", ["--warnings", "-l", "\(root.path)/usr/share/man/man1/\(page).1.gz"],
                                   environment: ["MANWIDTH": "100", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"])
            XCTAssertEqual(rendered.err, "", "\(page)(1) renders with warnings")
            XCTAssertTrue(rendered.out.contains("SYNOPSIS"), rendered.out)
        }
    }

    /// The installed quaverd on a private bus, asked by the installed quaver; it indexes a tagged file with the
    /// TagLib it loads from /usr/lib/quaver (libquaver-taglib.so, found from the program's own folder).
    func assertInstalledProgramsRun(root: TemporaryDirectory, version: String) throws {
        let bus = try PrivateBus()
        let home = try TemporaryDirectory(prefix: "quaver-deb-home")
        try TaggedTree.write([TaggedTree.File("Artist/Album/01.flac", ["TITLE": "Packaged", "ARTIST": "Artist"])],
                             under: home.url.appendingPathComponent("Music"))
        let daemon = try ChildProcess(root.path + "/usr/bin/quaverd", ["--output", "fakesink sync=true"],
                                      environment: RunningDaemon.environment(bus: bus, home: home), logDirectory: home.url)
        defer { daemon.stop() }
        let client = try Connection(address: bus.address)
        XCTAssertTrue(eventually(timeout: 20, { RunningDaemon.hasOwner(client) }), daemon.standardError)
        let status = try run(root.path + "/usr/bin/quaver", ["status", "--json", "--bus-address", bus.address]).out
        let object = try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any]
        XCTAssertEqual(object?["state"] as? String, "stopped", status)
        let reply = try client.call(destination: ControlAPI.busName, path: RunningDaemon.path,
                                    interface: ControlAPI.propertiesInterface, method: "Get",
                                    arguments: [.string(ControlAPI.quaverInterface), .string("Version")])
        XCTAssertEqual(reply.first?.unwrapped.stringValue, version)
        let indexed = {
            (try? client.call(destination: ControlAPI.busName, path: RunningDaemon.path,
                              interface: ControlAPI.propertiesInterface, method: "Get",
                              arguments: [.string(ControlAPI.libraryInterface), .string("TrackCount")]))?
                .first?.unwrapped.int64Value
        }
        XCTAssertTrue(eventually(timeout: 20) { indexed() == 1 }, "the tagged file is not indexed: \(daemon.standardError)")
    }
}
