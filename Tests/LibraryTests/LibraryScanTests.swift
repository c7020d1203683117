import Foundation
import Library
import TagLib
import TestSupport
import XCTest

final class LibraryScanTests: XCTestCase {
    private func tags(_ format: String) -> [String: String] {
        ["TITLE": "Title \(format)", "ARTIST": "Artist \(format)", "ALBUM": "Album \(format)",
         "ALBUMARTIST": "Album Artist \(format)", "TRACKNUMBER": "3", "DISCNUMBER": "2", "DATE": "1971",
         "GENRE": "Genre \(format)", "COMPOSER": "Composer \(format)"]
    }

    func testEveryFormatIsReadWithItsTags() throws {
        let library = try ScannedLibrary()
        try library.write(TaggedTree.formats.map { TaggedTree.File("\($0)/track.\($0)", tags($0)) })
        library.scan()
        let tracks = try library.search("")
        XCTAssertEqual(tracks.count, TaggedTree.formats.count, "\(library.notes)")
        for format in TaggedTree.formats {
            guard let track = tracks.first(where: { $0.path.hasSuffix("track.\(format)") }) else {
                XCTFail("\(format) not indexed")
                continue
            }
            XCTAssertEqual(track.title, "Title \(format)")
            XCTAssertEqual(track.artists, ["Artist \(format)"])
            XCTAssertEqual(track.album, "Album \(format)")
            XCTAssertEqual(track.albumArtist, "Album Artist \(format)", format)
            XCTAssertEqual(track.trackNumber, 3, format)
            XCTAssertEqual(track.discNumber, 2, format)
            XCTAssertEqual(track.year, 1971, format)
            XCTAssertEqual(track.genre, "Genre \(format)")
            XCTAssertEqual(track.composer, "Composer \(format)")
            XCTAssertEqual(Double(track.lengthMilliseconds), 1000, accuracy: 80, format)
            XCTAssertTrue(track.uri.hasPrefix("file:///"))
        }
    }

    func testMusicBrainzIDsReplayGainAndCoverAreKept() throws {
        let library = try ScannedLibrary()
        let cover = library.home.url.appendingPathComponent("cover.png")
        try Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP438AARwzEcQB+ohfxXaFgBQAAAABJRU5ErkJggg==")!
            .write(to: cover)
        try library.write([TaggedTree.File("a.flac", ["TITLE": "Tagged", "MUSICBRAINZ_TRACKID": "0a1b-rec",
                                                      "MUSICBRAINZ_ALBUMID": "0a1b-album",
                                                      "REPLAYGAIN_TRACK_GAIN": "-6.50 dB",
                                                      "REPLAYGAIN_ALBUM_PEAK": "0.987654"])])
        try Fixtures.run("metaflac", ["--import-picture-from=\(cover.path)", library.music.appendingPathComponent("a.flac").path])
        library.scan()
        let track = try XCTUnwrap(try library.search("tagged").first)
        XCTAssertEqual(track.musicBrainz.recording, "0a1b-rec")
        XCTAssertEqual(track.musicBrainz.album, "0a1b-album")
        XCTAssertEqual(track.replayGain.trackGain, -6.5)
        XCTAssertEqual(track.replayGain.albumPeak, 0.987654)
        XCTAssertNil(track.replayGain.albumGain)
        XCTAssertTrue(track.hasCover)
    }

    /// With no index yet and no folder there, a scan has no track to mark missing and none to remove: it makes no
    /// file, so SQLite does not run at start on a machine without ~/Music. The first search makes it (through the
    /// scanner), holding that scan's end.
    func testAScanWithNothingToIndexMakesNoIndexUntilASearch() throws {
        let library = try ScannedLibrary()
        let scanner = library.makeScanner(folders: [library.home.url.appendingPathComponent("Absent").path])
        let started = Int64(Date().timeIntervalSince1970)
        scanner.scanAll()
        scanner.waitUntilIdle()
        XCTAssertFalse(library.index.isMade)
        XCTAssertEqual(library.lastProgress, LibraryScanner.Progress())
        let asked = Int64(Date().timeIntervalSince1970)
        let made = expectation(description: "the index made")
        scanner.makeIndex { made.fulfill() }
        wait(for: [made], timeout: 30)
        let statistics = try library.catalog().statistics()
        XCTAssertEqual(statistics.tracks, 0)
        XCTAssertTrue((started...asked).contains(statistics.lastScanEnd), "\(statistics.lastScanEnd)")
        XCTAssertEqual(library.notes, [])
    }

    func testARescanWithNothingChangedReadsNoFile() throws {
        let library = try ScannedLibrary()
        try library.write((1...20).map { TaggedTree.File("album/\($0).flac", ["TITLE": "Song \($0)"]) })
        library.scan()
        XCTAssertEqual(library.lastProgress.filesToRead, 20)
        library.scan()
        XCTAssertEqual(library.lastProgress.filesToRead, 0)
        XCTAssertFalse(library.lastProgress.scanning)
        XCTAssertEqual(try library.search("song").count, 20)
    }

    func testChangedAndRemovedFilesAreUpdatedByTheNextScan() throws {
        let library = try ScannedLibrary()
        try library.write([TaggedTree.File("a.mp3", ["TITLE": "Before"]), TaggedTree.File("b.ogg", ["TITLE": "Gone"])])
        library.scan()
        try library.write([TaggedTree.File("a.mp3", ["TITLE": "After"])])
        try FileManager.default.removeItem(at: library.music.appendingPathComponent("b.ogg"))
        library.scan()
        XCTAssertEqual(try library.search("").map(\.title), ["After"])
        XCTAssertEqual(library.lastProgress.filesToRead, 1)
    }

    func testSymbolicLinkLoopsEndAndLinkedFoldersAreIndexedOnce() throws {
        let library = try ScannedLibrary()
        try library.write([TaggedTree.File("a/one.flac", ["TITLE": "Once"])])
        try FileManager.default.createSymbolicLink(atPath: library.music.appendingPathComponent("a/loop").path,
                                                   withDestinationPath: library.music.path)
        try FileManager.default.createSymbolicLink(atPath: library.music.appendingPathComponent("dangling.flac").path,
                                                   withDestinationPath: "/nonexistent/x.flac")
        library.scan()
        XCTAssertEqual(try library.titles("once"), ["Once"])
    }

    func testNamesThatAreNotUTF8AreIndexedAndQueuedByTheirBytes() throws {
        let library = try ScannedLibrary()
        try library.write([TaggedTree.File("plain.flac", ["TITLE": "Latin-1 name"])])
        // "café.flac" with the é in Latin-1: a name that is not UTF-8.
        let name = Array(library.music.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".flac".utf8) + [0]
        let renamed = name.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer { target in
            rename(library.music.appendingPathComponent("plain.flac").path, target.baseAddress!)
        }
        XCTAssertEqual(renamed, 0)
        library.scan()
        let track = try XCTUnwrap(try library.search("latin").first)
        XCTAssertTrue(track.uri.hasSuffix("/caf%E9.flac"), track.uri)
    }

    func testDamagedFilesAndHugeTagsAreBoundedAndNeverStopTheScan() throws {
        let library = try ScannedLibrary()
        let hugeArtist = String(repeating: "B", count: 10 << 20)
        try library.write([TaggedTree.File("good.flac", ["TITLE": "Good"]),
                           TaggedTree.File("huge.flac", ["TITLE": "Huge", "ARTIST": hugeArtist]),
                           TaggedTree.File("many.mp3", values: ["TITLE": ["Many"], "ARTIST": (1...5000).map { "A\($0)" }])])
        try Data(repeating: 0x41, count: 4096).write(to: library.music.appendingPathComponent("noise.mp3"))
        try Data("fLaC".utf8).write(to: library.music.appendingPathComponent("truncated.flac"))
        library.scan()
        XCTAssertEqual(Set(try library.search("").map(\.title)), ["Good", "Huge", "Many"])
        let huge = try XCTUnwrap(try library.search("title:huge").first)
        XCTAssertLessThanOrEqual(huge.artists.first?.utf8.count ?? 0, 4096)
        XCTAssertEqual(try XCTUnwrap(try library.search("title:many").first).artists.count, 100)
    }

    func testAFolderTakenOutOfTheSettingsLeavesTheIndex() throws {
        let library = try ScannedLibrary()
        let other = library.home.url.appendingPathComponent("Music2")  // a name that starts like the kept folder's
        try library.write([TaggedTree.File("kept.flac", ["TITLE": "Kept"])])
        try TaggedTree.write([TaggedTree.File("dropped.flac", ["TITLE": "Dropped"])], under: other)
        let both = library.makeScanner(folders: [library.music.path, other.path])
        both.scanAll()
        both.waitUntilIdle()
        XCTAssertEqual(Set(try library.search("").map(\.title)), ["Kept", "Dropped"])
        library.scan()
        XCTAssertEqual(try library.titles(""), ["Kept"])
    }

    func testTracksOfAFolderThatIsGoneAreKeptAsMissing() throws {
        let library = try ScannedLibrary()
        let disk = library.home.url.appendingPathComponent("disk")
        try TaggedTree.write([TaggedTree.File("x.flac", ["TITLE": "On the disk"])], under: disk)
        let scanner = library.makeScanner(folders: [library.music.path, disk.path])
        scanner.scanAll()
        scanner.waitUntilIdle()
        try FileManager.default.moveItem(at: disk, to: library.home.url.appendingPathComponent("unplugged"))
        scanner.scanAll()
        scanner.waitUntilIdle()
        XCTAssertEqual(try library.titles("disk"), ["On the disk"])
        XCTAssertEqual(try library.catalog().statistics().missing, 1)
        XCTAssertTrue(library.notes.contains { $0.contains("cannot be read") }, "\(library.notes)")
    }
}

final class ScanCancelTests: XCTestCase {
    /// quaverd stopping in the middle of a long first scan does not wait for it: the scan ends at its next
    /// batch, and what it committed stays.
    func testACancelledScanEndsAtOnce() throws {
        let library = try ScannedLibrary()
        try library.write((1...600).map { TaggedTree.File("many/\($0).mp3", ["TITLE": "Track \($0)"]) })
        library.scanner.scanAll()
        library.scanner.cancel()
        let started = Date()
        library.scanner.waitUntilIdle()
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        // The scan may have ended before it made the file at all.
        XCTAssertLessThan((try? library.search("track").count) ?? 0, 600)
        library.scanner.scanAll()
        library.scanner.waitUntilIdle()
        XCTAssertLessThan((try? library.search("track").count) ?? 0, 600, "a cancelled scanner stays stopped")
    }
}

final class EmbeddedCoverTests: XCTestCase {
    func testTheFrontCoverIsReadFromFLACAndMP3() throws {
        let fixtures = try Fixtures.shared()
        for file in [fixtures.flac, fixtures.mp3] {
            let picture = EmbeddedPicture.frontCover(pathBytes: Array(file.path.utf8), maximumByteCount: 1 << 20)
            XCTAssertEqual(picture?.data, fixtures.coverBytes, file.lastPathComponent)
        }
        XCTAssertNil(EmbeddedPicture.frontCover(pathBytes: Array(fixtures.vorbis.path.utf8), maximumByteCount: 1 << 20))
        XCTAssertNil(EmbeddedPicture.frontCover(pathBytes: Array(fixtures.flac.path.utf8), maximumByteCount: 10),
                     "larger than allowed")
        XCTAssertNil(EmbeddedPicture.frontCover(pathBytes: Array("/nonexistent.flac".utf8), maximumByteCount: 1 << 20))
    }
}

final class MidScanChangeTests: XCTestCase {
    /// Files that vanish, change or are cut short after the walk found them and before their batch is read (here
    /// from the scanner's own progress report after its first batch): the scan goes on to its end, a vanished or
    /// damaged file is left out, and a changed one is indexed with what was read; its state is the walk's, older
    /// than what was read, so the next scan reads it again.
    func testFilesVanishingOrChangingMidScanNeverStopIt() throws {
        let library = try ScannedLibrary()
        let files = (1...600).map { TaggedTree.File("many/\($0).flac", ["TITLE": "Track \($0)"]) }
        try library.write(files)
        var changed: [URL] = []
        library.onProgress = { progress in
            guard changed.isEmpty, progress.filesRead > 0 else { return }
            let read = Set(((try? library.search("", limit: 1000)) ?? []).map(\.path))
            changed = Array(files.map { library.music.appendingPathComponent($0.path) }.filter { !read.contains($0.path) }.prefix(3))
            guard changed.count == 3 else { return }
            unlink(changed[0].path)
            try? TaggedTree.write([TaggedTree.File(changed[1].lastPathComponent, ["TITLE": "Changed meanwhile"])],
                                  under: changed[1].deletingLastPathComponent())
            truncate(changed[2].path, 4)
        }
        library.scan()
        XCTAssertEqual(changed.count, 3, "no file was left to change after the first batch")
        XCTAssertFalse(library.notes.contains { $0.contains("stopped") }, "\(library.notes)")
        XCTAssertFalse(library.lastProgress.scanning)
        XCTAssertEqual(try library.search("", limit: 1000).count, 598)
        XCTAssertEqual(try library.titles("changed"), ["Changed meanwhile"])
        library.onProgress = { _ in }
        library.scan()
        XCTAssertEqual(try library.search("", limit: 1000).count, 598)
        XCTAssertEqual(try library.titles("changed"), ["Changed meanwhile"])
    }
}

final class AwayFolderTests: XCTestCase {
    /// A music folder that is there but empty, as an unplugged disk's mount point is: its tracks are kept, marked
    /// missing (never read as 600 deletions), and are back once its files are.
    func testAnEmptiedMusicFolderKeepsItsTracksAsMissing() throws {
        let library = try ScannedLibrary()
        try library.write([TaggedTree.File("a/one.flac", ["TITLE": "One"]), TaggedTree.File("two.mp3", ["TITLE": "Two"])])
        library.scan()
        let away = library.home.url.appendingPathComponent("away")
        try FileManager.default.moveItem(at: library.music, to: away)
        try FileManager.default.createDirectory(at: library.music, withIntermediateDirectories: false)
        library.scan()
        XCTAssertEqual(Set(try library.titles("")), ["One", "Two"])
        XCTAssertEqual(try library.catalog().statistics().missing, 2)
        XCTAssertEqual(library.notes.filter { $0.contains("marked missing") }.count, 1, "\(library.notes)")
        library.scan()
        XCTAssertEqual(library.notes.filter { $0.contains("marked missing") }.count, 1, "said once")
        try FileManager.default.removeItem(at: library.music)
        try FileManager.default.moveItem(at: away, to: library.music)
        library.scan()
        XCTAssertEqual(try library.catalog().statistics().missing, 0)
        XCTAssertEqual(Set(try library.titles("")), ["One", "Two"])
    }
}

final class ScannerThreadTests: XCTestCase {
    /// The scanner's thread runs under SCHED_IDLE, so that quaverd's loop takes the CPU from it as soon as a
    /// client calls: its policy is field 41 of /proc/self/task/<tid>/stat (proc(5)), 5 for SCHED_IDLE.
    func testTheScannerRunsUnderTheIdlePolicy() throws {
        let library = try ScannedLibrary()
        library.scan()  // the thread has run a job, so it set its policy first
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        let policies = tasks.compactMap { task -> String? in
            guard (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) == "quaver-scan\n",
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // Fields after the command name start at field 3.
            return stat[stat.index(after: close)...].split(separator: " ").dropFirst(38).first.map(String.init)
        }
        XCTAssertFalse(policies.isEmpty, "no quaver-scan thread")
        XCTAssertEqual(Set(policies), ["5"])
    }
}
