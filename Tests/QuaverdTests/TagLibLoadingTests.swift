import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// TagLib (libquaver-taglib.so, with libtag) is loaded by the first tag the library's scan reads, not at
/// start-up: a daemon whose music folder has nothing new to read never maps it (docs/reliability.md).
final class TagLibLoadingTests: XCTestCase {
    /// Fails when the program links TagLib: libtag is then mapped from start-up on.
    func testTagLibIsLoadedByTheFirstTagReadOnly() throws {
        let home = try TemporaryDirectory(prefix: "taglib-home")
        let music = home.url.appendingPathComponent("Music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let daemon = try RunningDaemon(home: home)
        daemon.waitUntil("the first scan", timeout: 30) { self.lastScan(daemon) > 0 }
        let atRest = try RadioStormTests.loadedLibraries(of: daemon.process.pid)
        XCTAssertFalse(atRest.contains { $0.contains("libquaver-taglib.so") || $0.contains("libtag.so") },
                       atRest.joined(separator: "\n"))

        try TaggedTree.write([TaggedTree.File("Artist/Album/01.flac", ["TITLE": "First", "ARTIST": "Artist"])], under: music)
        try daemon.call("Rescan", on: ControlAPI.libraryInterface)
        daemon.waitUntil("the file indexed", timeout: 30) {
            (try? daemon.get("TrackCount", ControlAPI.libraryInterface).int64Value) == 1
        }
        let afterRead = try RadioStormTests.loadedLibraries(of: daemon.process.pid)
        XCTAssertTrue(afterRead.contains { $0.hasSuffix("/libquaver-taglib.so") }, afterRead.joined(separator: "\n"))
    }

    private func lastScan(_ daemon: RunningDaemon) -> Int64 {
        let reply = try? daemon.call("Statistics", on: ControlAPI.libraryInterface)
        return reply?.first?.dictionaryValue?["LastScan"]?.unwrapped.int64Value ?? 0
    }
}
