import ControlAPI
import DBus
import Foundation
import Glibc
import TestSupport
import XCTest

/// Linux file names are bytes: a name that is not UTF-8 (an old Latin-1 rip) is queued by the bytes its
/// URI carries and plays; one file of a folder that cannot be queued leaves the rest queued.
final class ByteFileNameTests: XCTestCase {
    /// `latin\xE9\xFF.flac`: é in Latin-1, then a byte no encoding of text starts with.
    static let latin1Name: [UInt8] = Array("latin".utf8) + [0xE9, 0xFF] + Array(".flac".utf8)

    func testALatin1NamedFLACIsQueuedAndPlays() throws {
        let music = try TemporaryDirectory(prefix: "byte-names")
        let path = try Self.copy(try Media.fixtures().flac, to: Array(music.path.utf8) + [UInt8(ascii: "/")] + Self.latin1Name)
        defer { _ = LocalPath.withCString(path) { unlink($0) } }
        let uri = FileURI.encode(pathBytes: path)
        XCTAssertTrue(uri.hasSuffix("/latin%E9%FF.flac"), uri)
        let daemon = try RunningDaemon()

        try daemon.call("AddTracks", [.stringArray([uri]), .string("end"), .boolean(true)], on: ControlAPI.quaverInterface)
        daemon.waitUntil("the Latin-1 named file playing", timeout: 20) {
            daemon.status == "Playing" && daemon.positionSeconds > 0.3
        }
        XCTAssertEqual(daemon.metadata["xesam:url"]?.stringValue, uri)
        XCTAssertEqual(daemon.metadata["xesam:title"]?.stringValue, Fixtures.title)
    }

    func testAFolderAddLeavesOutWhatCannotBeQueuedAndAnExplicitListStaysAllOrNothing() throws {
        let music = try TemporaryDirectory(prefix: "folder-add")
        let fixtures = try Media.fixtures()
        let folder = Array(music.path.utf8) + [UInt8(ascii: "/")]
        let latin1 = try Self.copy(fixtures.flac, to: folder + Array("3 ".utf8) + Self.latin1Name)
        defer { _ = LocalPath.withCString(latin1) { unlink($0) } }
        try FileManager.default.copyItem(at: fixtures.wav, to: music.url.appendingPathComponent("1 one.wav"))
        try "not audio at all\n".write(to: music.url.appendingPathComponent("2 broken.flac"), atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon()

        let add = try daemon.quaver("add", [music.path])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertTrue(add.stdout.contains("queued 2 tracks"), add.stdout)
        XCTAssertTrue(add.stderr.contains("skipped file://\(music.path)/2%20broken.flac: not a sound file"), add.stderr)
        let queued = try daemon.call("GetQueue", on: ControlAPI.quaverInterface)[0].arrayValue ?? []
        let urls = queued.compactMap { $0.arrayValue?[1].dictionaryValue?["xesam:url"]?.unwrapped.stringValue }
        XCTAssertEqual(urls, [FileURI.encode(path: music.path + "/1 one.wav"), FileURI.encode(pathBytes: latin1)])


        let broken = FileURI.encode(path: music.path + "/2 broken.flac")
        let wav = FileURI.encode(path: music.path + "/1 one.wav")
        XCTAssertThrowsError(try daemon.call("AddTracks", [.stringArray([wav, broken]), .string("end"), .boolean(false)],
                                             on: ControlAPI.quaverInterface)) { error in
            XCTAssertEqual((error as? DBusError)?.name, DBusError.invalidArgs("").name, "\(error)")
        }
        XCTAssertEqual(daemon.tracks.count, urls.count, "an explicit list is refused whole")
    }

    /// `quaver add` given a folder and a file whose names are not UTF-8 on its command line (through a shell:
    /// a Swift child process's arguments are strings) queues them by their bytes.
    func testTheCLIGetsByteNamesFromItsCommandLine() throws {
        let music = try TemporaryDirectory(prefix: "byte-arguments")
        let folder = Array(music.path.utf8) + Array("/dossier".utf8) + [0xE9]
        XCTAssertEqual(LocalPath.withCString(folder) { mkdir($0, 0o755) }, 0)
        let file = try Self.copy(try Media.fixtures().flac, to: folder + [UInt8(ascii: "/")] + Self.latin1Name)
        _ = try Self.write(Data("not audio\n".utf8), to: folder + Array("/broken.flac".utf8))
        defer {
            _ = LocalPath.withCString(file) { unlink($0) }
            _ = LocalPath.withCString(folder + Array("/broken.flac".utf8)) { unlink($0) }
            _ = LocalPath.withCString(folder) { rmdir($0) }
        }
        let daemon = try RunningDaemon()

        let addFolder = try quaverThroughShell(daemon, "add", folder)
        XCTAssertEqual(addFolder.status, 0, addFolder.stderr)
        XCTAssertTrue(addFolder.stdout.contains("queued 1 track") && addFolder.stderr.contains("broken.flac: not a sound file"),
                      addFolder.stdout + addFolder.stderr)
        let addFile = try quaverThroughShell(daemon, "add", file)
        XCTAssertEqual(addFile.status, 0, addFile.stderr)
        let urls = (try daemon.call("GetQueue", on: ControlAPI.quaverInterface)[0].arrayValue ?? [])
            .compactMap { $0.arrayValue?[1].dictionaryValue?["xesam:url"]?.unwrapped.stringValue }
        XCTAssertEqual(urls, Array(repeating: FileURI.encode(pathBytes: file), count: 2))
    }

    /// `quaver <command> --bus-address … <path>` run by `sh`, which writes the path's bytes with printf.
    private func quaverThroughShell(_ daemon: RunningDaemon, _ command: String, _ path: [UInt8]) throws
        -> (status: Int32, stdout: String, stderr: String) {
        let octal = path.map { $0 < 0x80 && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: "\\") ? String(UnicodeScalar($0))
                                                                                                  : "\\" + String($0, radix: 8) }.joined()
        return try ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" \"$1\" --bus-address \"$2\" \"$(printf \"$3\")\"",
                                                productsDirectory.appendingPathComponent("quaver").path, command,
                                                daemon.bus.address, octal], environment: daemon.bus.environment, timeout: 20)
    }

    /// Copies `source` to the file named by the bytes `path`; returns `path`.
    static func copy(_ source: URL, to path: [UInt8]) throws -> [UInt8] {
        try write(try Data(contentsOf: source), to: path)
    }

    /// Writes `data` to a new file named by the bytes `path`; returns `path`.
    static func write(_ data: Data, to path: [UInt8]) throws -> [UInt8] {
        let descriptor = LocalPath.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw TestHarnessError("cannot create \(String(decoding: path, as: UTF8.self))") }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count else { throw TestHarnessError("short write") }
        return path
    }
}
