import Foundation
@testable import StateStore
import TestSupport
import XCTest

final class StateFileTests: XCTestCase {
    private var folder: TemporaryDirectory!
    private var file: StateFile!

    override func setUpWithError() throws {
        folder = try TemporaryDirectory(prefix: "quaver-state")
        file = StateFile(url: folder.url.appendingPathComponent("quaver/state.json"))
    }

    private func sample() -> SavedState {
        SavedState(queue: [
            SavedTrack(uri: "file:///m/a%20b.flac",
                       metadata: SavedMetadata(title: "Ä", artists: ["X", "Y"], album: "Al", trackNumber: 2,
                                               discNumber: 1, lengthMicroseconds: 180_000_000)),
            SavedTrack(uri: "https://radio.example/live"),
        ], currentIndex: 1, positionMicroseconds: 12_345_678, volume: 0.5, rate: 1.5, loopMode: "Playlist",
        shuffle: true, wasPlaying: true)
    }

    private func folderContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: file.url.deletingLastPathComponent().path).sorted()
    }

    func testStandardLocationFollowsXDG() throws {
        XCTAssertEqual(try StateFile.standard(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).url.path, "/s/quaver/state.json")
        XCTAssertEqual(try StateFile.standard(environment: ["HOME": "/h"]).url.path, "/h/.local/state/quaver/state.json")
    }

    func testMissingFileGivesNothingAndNoWarning() {
        let loaded = file.load()
        XCTAssertNil(loaded.state)
        XCTAssertNil(loaded.warning)
    }

    func testRoundTripCreatesTheFolderAndLeavesNoTemporaryFile() throws {
        try file.save(sample())
        XCTAssertEqual(try folderContents(), ["state.json"])
        let loaded = file.load()
        XCTAssertEqual(loaded.state, sample())
        XCTAssertNil(loaded.warning)
        var next = sample()
        next.queue.removeFirst()
        next.currentIndex = 0
        try file.save(next)
        XCTAssertEqual(file.load().state, next)
        XCTAssertEqual(try folderContents(), ["state.json"])
        let mode = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    /// The mark is not synced (StateFile says why): what a power cut can leave of it, an empty file or the start of
    /// one, gives the state's own position, never a failed load.
    func testAMarkLeftEmptyOrCutShortGivesTheStatesOwnPosition() throws {
        var state = sample()
        state.revision = "r1"
        try file.save(state)
        var moved = state
        moved.positionMicroseconds = 99_000_000
        try file.savePosition(PositionMark(of: moved, revision: "r1"))
        XCTAssertEqual(file.load().state?.positionMicroseconds, 99_000_000)
        let markPath = file.url.path + ".position"
        let mark = try Data(contentsOf: URL(fileURLWithPath: markPath))
        for left in [Data(), mark.prefix(mark.count / 2)] {
            try left.write(to: URL(fileURLWithPath: markPath))
            let loaded = file.load()
            XCTAssertEqual(loaded.state?.positionMicroseconds, 12_345_678)
            XCTAssertEqual(loaded.state?.currentIndex, 1)
            XCTAssertNil(loaded.warning)
        }
    }

    func testEmptyFieldsAreLeftOutOfTheJSON() throws {
        try file.save(SavedState(queue: [SavedTrack(uri: "file:///a", metadata: SavedMetadata(title: "t"))]))
        let text = try String(contentsOf: file.url, encoding: .utf8)
        XCTAssertFalse(text.contains("artists"), text)
        XCTAssertFalse(text.contains("currentIndex"), text)
        XCTAssertTrue(text.contains("\"version\":2"), text)
    }

    func testAStaleTemporaryFromACrashIsReplaced() throws {
        try FileManager.default.createDirectory(at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("half a state".utf8).write(to: URL(fileURLWithPath: file.url.path + ".tmp"))
        try file.save(sample())
        XCTAssertEqual(try folderContents(), ["state.json"])
        XCTAssertEqual(file.load().state, sample())
    }

    func testUnusableFilesAreMovedAsideWithAWarning() throws {
        try file.save(sample())
        let good = try Data(contentsOf: file.url)
        var wrongVersion = try JSONSerialization.jsonObject(with: good) as! [String: Any]
        wrongVersion["version"] = 99
        var badIndex = wrongVersion
        badIndex["version"] = 2
        badIndex["currentIndex"] = 7
        var badType = badIndex
        badType["currentIndex"] = 0
        badType["volume"] = "loud"
        let cases: [(Data, String)] = [
            (Data("{not json".utf8), "not a Quaver state file"),
            (good.prefix(good.count / 2), "truncated"),
            (Data(), "not a Quaver state file"),
            (try JSONSerialization.data(withJSONObject: wrongVersion), "format version 99, this Quaver reads versions 1 to 2"),
            (try JSONSerialization.data(withJSONObject: badIndex), "current index 7 is outside the queue of 2 tracks"),
            (try JSONSerialization.data(withJSONObject: badType), "bad value at .volume"),
        ]
        for (number, (content, expected)) in cases.enumerated() {
            try content.write(to: file.url)
            let now = Date(timeIntervalSince1970: 1_700_000_000 + Double(number))
            let loaded = file.load(now: now)
            XCTAssertNil(loaded.state)
            let warning = try XCTUnwrap(loaded.warning)
            let aside = file.url.path + ".corrupt-20231114T2213\(20 + number)Z"
            XCTAssertTrue(warning.contains(expected), warning)
            XCTAssertTrue(warning.contains("moved it to \(aside)"), warning)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: aside)), content, "the bad file is kept as it was")
            XCTAssertFalse(FileManager.default.fileExists(atPath: file.url.path))
            XCTAssertNil(file.load().warning, "after moving aside, the next start is clean")
        }
    }

    func testAnUnreadableStateIsMovedAsideToo() throws {
        try FileManager.default.createDirectory(at: file.url, withIntermediateDirectories: true)  // read fails: EISDIR
        let loaded = file.load(now: Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertNil(loaded.state)
        let warning = try XCTUnwrap(loaded.warning)
        XCTAssertTrue(warning.contains("cannot be read"), warning)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.url.path + ".corrupt-20231114T221320Z"), warning)
        try file.save(sample())
        XCTAssertEqual(file.load().state, sample())
    }

    /// A state file past the bound is set aside unread (sparse here: its size is all that is looked at).
    func testAHugeStateIsMovedAsideUnread() throws {
        try file.save(sample())
        XCTAssertEqual(truncate(file.url.path, off_t(StateFile.maximumBytes + 1)), 0)
        let loaded = file.load(now: Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertNil(loaded.state)
        let warning = try XCTUnwrap(loaded.warning)
        XCTAssertTrue(warning.contains("larger than 128 MiB"), warning)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.url.path + ".corrupt-20231114T221320Z"), warning)
    }

    func testASecondBadFileInTheSameSecondGetsItsOwnName() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.createDirectory(at: file.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("bad".utf8).write(to: file.url)
        _ = file.load(now: now)
        try Data("worse".utf8).write(to: file.url)
        let warning = try XCTUnwrap(file.load(now: now).warning)
        XCTAssertTrue(warning.contains(".corrupt-20231114T221320Z-2"), warning)
    }

    func testSaveIntoAnUnwritablePlaceThrowsNamingThePath() throws {
        let blocked = StateFile(url: URL(fileURLWithPath: "/proc/quaver-test/state.json"))
        XCTAssertThrowsError(try blocked.save(sample())) { error in
            XCTAssertTrue("\(error)".contains("/proc/quaver-test"), "\(error)")
        }
    }

    /// Benchmark (prints; asserts only the round trip): 20 000 tracks with typical cached tags.
    func testTwentyThousandTracks() throws {
        let queue = (0..<20_000).map { n in
            SavedTrack(uri: fileURI(n), metadata: SavedMetadata(
                title: "Track \(n) of a fairly long album title", artists: ["Artist \(n % 300)"],
                album: "Album \(n / 12)", albumArtists: ["Artist \(n % 300)"], trackNumber: n % 12 + 1, discNumber: 1,
                lengthMicroseconds: Int64(180_000_000 + n)))
        }
        let state = SavedState(queue: queue, currentIndex: 19_999, positionMicroseconds: 5_000_000, wasPlaying: true)
        var times: [Double] = []
        for _ in 0..<3 {
            let start = Date()
            try file.save(state)
            times.append(Date().timeIntervalSince(start))
        }
        let encodeStart = Date()
        _ = try StateJSON.encode(state)
        let encodeTime = Date().timeIntervalSince(encodeStart)
        let loadStart = Date()
        let loaded = file.load()
        let loadTime = Date().timeIntervalSince(loadStart)
        XCTAssertEqual(loaded.state, state)
        let size = try FileManager.default.attributesOfItem(atPath: file.url.path)[.size] as! Int
        print(String(format: "BENCH StateFile 20000 tracks: save %@ s (of which JSON encoding %.3f s), load %.3f s, %d bytes",
                     times.map { String(format: "%.3f", $0) }.joined(separator: "/"), encodeTime, loadTime, size))
    }
}

private func fileURI(_ n: Int) -> String {
    "file:///home/user/Music/Artist%20\(n % 300)/Album%20\(n / 12)/\(String(format: "%02d", n % 12 + 1))%20Track%20\(n).flac"
}
