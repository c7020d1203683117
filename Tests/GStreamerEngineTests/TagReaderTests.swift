import EventLoop
import GStreamerEngine
import PlayerCore
import TestSupport
import XCTest

/// The background tag reader on the generated fixtures, pumped on this test's GLib loop.
final class TagReaderTests: XCTestCase {
    private var fixtures: Fixtures!
    private var reader: TagReader!
    private var read: [(TrackID, TrackTags, Duration?)] = []

    override func setUpWithError() throws {
        fixtures = try Fixtures.shared()
        reader = TagReader()
        reader.onRead = { [unowned self] in read.append(($0, $1, $2)) }
    }

    override func tearDown() {
        EventLoop.main.run(until: { self.reader.pendingCount == 0 }, timeout: 10)  // never released mid-read
        reader = nil
    }

    private func item(_ number: UInt64, _ url: URL) -> EngineItem { EngineItem(id: TrackID(number), uri: url.absoluteString) }

    func testReadsTagsAndLengthsOfEveryFormatInOrderAndSkipsBadFiles() {
        let files = [fixtures.flac, fixtures.randomBytes, fixtures.vorbis, fixtures.missing, fixtures.mp3, fixtures.wav]
        XCTAssertEqual(reader.enqueue(files.enumerated().map { item(UInt64($0.offset + 1), $0.element) }), 6)
        XCTAssertTrue(EventLoop.main.run(until: { self.reader.pendingCount == 0 }, timeout: 20))
        XCTAssertEqual(read.map(\.0), [TrackID(1), TrackID(3), TrackID(5), TrackID(6)], "bad files are skipped")
        for (_, tags, length) in read {
            XCTAssertEqual(tags.title, Fixtures.title)
            XCTAssertEqual(tags.artists, [Fixtures.artist])
            XCTAssertNil(tags.coverImage, "covers are not kept for every queued track")
            XCTAssertEqual(Double((length ?? .zero) / .milliseconds(1)) / 1000, Double(Fixtures.toneSeconds), accuracy: 0.1)
        }
        XCTAssertEqual(read.first?.1.trackNumber, Fixtures.trackNumber)
    }

    /// At rest there is no discoverer thread: it starts with the first file and ends `idleLifetime` after
    /// the last, and a later file starts a new one.
    func testDiscovererRunsOnlyWhileThereIsWork() {
        let brief = TagReader(idleLifetime: 0.2)
        var reported: [TrackID] = []
        brief.onRead = { id, _, _ in reported.append(id) }
        XCTAssertFalse(brief.isDiscovererRunning, "not started before the first file")
        for number: UInt64 in [1, 2] {
            brief.enqueue([item(number, fixtures.flac)])
            XCTAssertTrue(brief.isDiscovererRunning)
            XCTAssertTrue(EventLoop.main.run(until: { brief.pendingCount == 0 }, timeout: 10))
            XCTAssertTrue(brief.isDiscovererRunning, "kept for the next file a while")
            XCTAssertTrue(EventLoop.main.run(until: { !brief.isDiscovererRunning }, timeout: 5), "ended when idle")
        }
        XCTAssertEqual(reported, [TrackID(1), TrackID(2)])
    }

    func testCapacityAndRemoveAll() throws {
        let small = TagReader(capacity: 2)
        XCTAssertEqual(small.enqueue((1...5).map { item($0, fixtures.flac) }), 2, "one reading, one waiting")
        small.removeAll()
        XCTAssertEqual(small.pendingCount, 1, "the file being read still reports")
        var reported: [TrackID] = []
        small.onRead = { id, _, _ in reported.append(id) }
        XCTAssertTrue(EventLoop.main.run(until: { small.pendingCount == 0 }, timeout: 10))
        XCTAssertEqual(reported, [TrackID(1)])
    }
}
