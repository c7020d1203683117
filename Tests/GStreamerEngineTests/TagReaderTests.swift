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
        reader = TagReader(readNowWait: .seconds(5))  // the content, not the timing, is tested here
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

    /// `readNow` answers on the spot, cover included, and finds nothing in what is not audio.
    func testReadNowIncludesTheCoverAndRefusesBadFiles() throws {
        for file in [fixtures.flac, fixtures.mp3] {
            let read = try XCTUnwrap(reader.readNow(item(1, file)), file.lastPathComponent)
            XCTAssertEqual(read.tags.title, Fixtures.title)
            XCTAssertEqual(read.tags.artists, [Fixtures.artist])
            XCTAssertEqual(read.tags.album, Fixtures.album)
            XCTAssertEqual(read.tags.coverImage?.data, fixtures.coverBytes, file.lastPathComponent)
            XCTAssertEqual(Double((read.duration ?? .zero) / .milliseconds(1)) / 1000, Double(Fixtures.toneSeconds),
                           accuracy: 0.1)
        }
        for file in fixtures.badFiles {  // an image is media to GstDiscoverer: read, with nothing in it
            let read = reader.readNow(item(2, file))
            XCTAssertTrue(read == nil || (read?.tags == TrackTags() && read?.duration == nil), file.lastPathComponent)
        }
        XCTAssertNotNil(reader.readNow(item(3, fixtures.vorbis)), "still reads after failures")
    }

    /// A file that never finishes reading (a FIFO: a pipeline reading it stays stuck in it even after its
    /// writer has gone, measured with GstDiscoverer) holds `readNow`'s caller for the wait only, and later callers not at all: they
    /// get nil at once and their tracks are read in the background.
    func testReadNowNeverHoldsItsCallerLongerThanTheWait() throws {
        let quick = TagReader(readNowWait: .milliseconds(40))
        let folder = try TemporaryDirectory(prefix: "tag-reader-fifo")
        let fifo = folder.url.appendingPathComponent("never written.flac")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let stuckFor = measure { XCTAssertNil(quick.readNow(self.item(1, fifo))) }
        XCTAssertLessThan(stuckFor, 2, "readNow waited for a read that never ends")
        let busyFor = measure { XCTAssertNil(quick.readNow(self.item(2, self.fixtures.flac)), "one read at a time") }
        XCTAssertLessThan(busyFor, 2)
        // The stuck thread's open(2) returns once a writer comes and goes; whatever it does next, it holds
        // no caller.
        let writer = open(fifo.path, O_WRONLY)
        XCTAssertGreaterThanOrEqual(writer, 0)
        close(writer)
    }

    /// Seconds `body` took, run on another thread so that a body that never returns fails the test
    /// instead of hanging it.
    private func measure(_ body: @escaping () -> Void) -> Double {
        let done = DispatchSemaphore(value: 0)
        let start = DispatchTime.now()
        Thread.detachNewThread { body(); done.signal() }
        guard done.wait(timeout: .now() + 5) == .success else { return .infinity }
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}
