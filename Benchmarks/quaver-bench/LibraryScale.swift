import ArgumentParser
import ControlAPI
import DBus
import EventLoop
import Foundation
import Library
import QuaverClient
import TestRigs

/// The music library at scale: a generated tree of small tagged files in seven formats indexed by the real
/// quaverd (files/s, the longest wait of a client polling Get(PlaybackStatus) meanwhile, RSS while and after),
/// then, in this process on the same index, a rescan with nothing changed and search latencies, and the
/// index's bytes per track. MPD indexing the same tree is the reference (MPDReference).
struct LibraryScale: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library-scale",
        abstract: "Index, rescan and search a generated library of 20 000 and 100 000 tagged files.")

    @Option(parsing: .upToNextOption, help: "Library sizes to measure.") var tracks = [20_000, 100_000]
    @Option(help: "Searches of each kind, for the percentiles.") var searches = 500

    func run() throws {
        for count in tracks { try measure(count) }
    }

    private func measure(_ count: Int) throws {
        let home = try TemporaryDirectory(prefix: "quaver-bench-library")
        let started = Date()
        try TaggedTree.write(LibraryTree.files(count), under: home.url.appendingPathComponent("Music"), seconds: 0.1)
        print(String(format: "%d files generated in %.0f s", count, Date().timeIntervalSince(started)))
        let first = try indexThroughQuaverd(count, home: home.url)
        let mpd = try MPDReference.filesPerSecond(music: home.url.appendingPathComponent("Music"), count: count)
        let index = LibraryIndex(path: home.url.appendingPathComponent("cache/quaver/library.db").path)
        let rescan = try rescanSeconds(index, music: home.url.appendingPathComponent("Music"))
        let catalog = LibraryCatalog(try index.openForReading())
        let oneWord = try latencies(catalog, "river")
        let threeFilters = try latencies(catalog, "artist:artist7 genre:rock year:1970..1979")
        let bytes = ["", "-wal"].compactMap { try? FileManager.default.attributesOfItem(atPath: index.path + $0)[.size] as? Int }
            .reduce(0, +)
        report(count, first, mpd, rescan, oneWord, threeFilters, Double(bytes) / Double(count))
    }

    private struct FirstIndex {
        var seconds = 0.0
        var longestPollMS = 0.0
        /// Polls over 20 ms: their wait and when they were asked (seconds after quaverd was spawned).
        var slowPolls: [(ms: Double, at: Double)] = []
        var peakRSSKiB = 0
        var restRSSKiB = 0
        var playQueued = 0
        var playMS = 0.0
        /// The longest wait of a client polling every 20 ms while the heaviest queries run, and each query's time.
        var queryPollMS = 0.0
        var queryMS: [(String, Double)] = []
    }

    /// quaverd started on the tree's home; polled for PlaybackStatus (from its first answer on) until TrackCount
    /// reaches `count`.
    private func indexThroughQuaverd(_ count: Int, home: URL) throws -> FirstIndex {
        let bus = try BenchBus()
        defer { bus.stop() }
        let daemon = try BenchQuaverd(on: bus, output: "fakesink", home: home)
        defer { daemon.stop() }
        var figures = FirstIndex()
        // Waits count from quaverd's first answer on, as the soak's do: before it, quaverd is still starting.
        _ = try daemon.client.playbackStatus
        var lastCount: Int64 = 0, lastSample = Date.distantPast
        while lastCount < count {
            let asked = EventLoop.monotonicMicroseconds
            _ = try daemon.client.playbackStatus
            let waited = Double(EventLoop.monotonicMicroseconds - asked) / 1000
            figures.longestPollMS = max(figures.longestPollMS, waited)
            if waited > 20 { figures.slowPolls.append((waited, Double(asked - daemon.spawnedAt) / 1_000_000)) }
            if Date().timeIntervalSince(lastSample) > 0.25 {
                lastSample = Date()
                lastCount = try daemon.client.libraryTrackCount()
                figures.peakRSSKiB = max(figures.peakRSSKiB, ProcessCounters.residentKiB(daemon.pid))
            }
            guard EventLoop.monotonicMicroseconds - daemon.spawnedAt < 1_800_000_000 else {
                throw BenchError("quaverd indexed \(lastCount) of \(count) files in 30 minutes")
            }
            usleep(2000)
        }
        figures.seconds = Double(EventLoop.monotonicMicroseconds - daemon.spawnedAt) / 1_000_000
        sleep(2)
        figures.restRSSKiB = ProcessCounters.residentKiB(daemon.pid)
        try queriesWhilePolling(daemon, bus, into: &figures)
        return figures
    }

    /// The heaviest library calls, one after another, while another client polls `Get(PlaybackStatus)` every
    /// 20 ms: every album and artist, a one-letter search as GNOME Shell asks while the user types, the "Never
    /// played" smart playlist (every track's URI), and `quaver play title:12`.
    private func queriesWhilePolling(_ daemon: BenchQuaverd, _ bus: BenchBus, into figures: inout FirstIndex) throws {
        let poll = try PollingClient(address: bus.address) { connection in
            _ = try QuaverClient(connection: connection, timeout: 10).playbackStatus
        }
        let connection = daemon.client.connection
        var queryMS: [(String, Double)] = []
        func timed(_ name: String, _ call: () throws -> Void) throws {
            let asked = EventLoop.monotonicMicroseconds
            try call()
            queryMS.append((name, Double(EventLoop.monotonicMicroseconds - asked) / 1000))
        }
        try timed("Albums") { _ = try daemon.client.albums(matching: "") }
        try timed("Artists") { _ = try daemon.client.artists(matching: "") }
        try timed("shell search 's'") {
            _ = try connection.call(destination: ControlAPI.busName, path: ObjectPath(ControlAPI.searchProviderPath),
                                    interface: ControlAPI.searchProviderInterface, method: "GetInitialResultSet",
                                    arguments: [.stringArray(["s"])], timeout: 60)
        }
        try timed("Never played") {
            try daemon.client.activatePlaylist(ObjectPath(ControlAPI.PlaylistPath.path(of: String(repeating: "0", count: 31) + "4")))
        }
        (figures.playQueued, figures.playMS) = try playQuery(daemon)
        figures.queryPollMS = poll.stop().longest * 1000
        figures.queryMS = queryMS
    }

    /// `quaver play title:12` (titles "Song 12…": 1 111 tracks at 20 000 and at 100 000): milliseconds from
    /// PlayQuery to the position moving (the output is fakesink in real time), and how many tracks were queued.
    private func playQuery(_ daemon: BenchQuaverd) throws -> (Int, Double) {
        let asked = EventLoop.monotonicMicroseconds
        let queued = try daemon.client.playQuery("title:12")
        while (try daemon.client.position) <= 0 {
            guard EventLoop.monotonicMicroseconds - asked < 30_000_000 else { throw BenchError("PlayQuery did not play") }
            usleep(1000)
        }
        return (Int(queued), Double(EventLoop.monotonicMicroseconds - asked) / 1000)
    }

    private func rescanSeconds(_ index: LibraryIndex, music: URL) throws -> Double {
        let scanner = LibraryScanner(index: index, folders: [Array(music.path.utf8)], note: { print($0) },
                                     progress: { _ in }, changed: {})
        let started = Date()
        scanner.scanAll()
        scanner.waitUntilIdle()
        return Date().timeIntervalSince(started)
    }

    /// p50 and p99 in milliseconds of a first page (100 tracks and the total) of `query`.
    private func latencies(_ catalog: LibraryCatalog, _ query: String) throws -> (p50: Double, p99: Double, found: Int) {
        var samples: [Double] = [], found = 0
        for _ in 0..<searches {
            let started = EventLoop.monotonicMicroseconds
            found = try catalog.search(SearchQuery(query), offset: 0, limit: 100).total
            samples.append(Double(EventLoop.monotonicMicroseconds - started) / 1000)
        }
        samples.sort()
        return (samples[samples.count / 2], samples[min(samples.count - 1, samples.count * 99 / 100)], found)
    }

    private func report(_ count: Int, _ first: FirstIndex, _ mpd: Double?, _ rescan: Double, _ oneWord: (p50: Double, p99: Double, found: Int),
                        _ threeFilters: (p50: Double, p99: Double, found: Int), _ bytesPerTrack: Double) {
        print(String(format: "%d tracks: first index %.1f s (%.0f files/s), longest Get(PlaybackStatus) %.1f ms, "
                     + "RSS peak %d KiB, after %d KiB; rescan unchanged %.2f s; search 'river' (%d found) p50 %.2f p99 %.2f ms, "
                     + "three filters (%d found) p50 %.2f p99 %.2f ms; %.0f bytes per track",
                     count, first.seconds, Double(count) / first.seconds, first.longestPollMS, first.peakRSSKiB,
                     first.restRSSKiB, rescan, oneWord.found, oneWord.p50, oneWord.p99, threeFilters.found, threeFilters.p50,
                     threeFilters.p99, bytesPerTrack))
        print(String(format: "PlayQuery of %d tracks to the position moving: %.0f ms", first.playQueued, first.playMS))
        print(String(format: "a client polling every 20 ms while the library answered (%@) waited at most %.1f ms",
                     first.queryMS.map { String(format: "%@ %.0f ms", $0.0, $0.1) }.joined(separator: ", "), first.queryPollMS))
        print("polls over 20 ms (ms at s): " + first.slowPolls.map { String(format: "%.0f@%.2f", $0.ms, $0.at) }.joined(separator: " "))
        let label = count >= 1000 ? "\(count / 1000)k" : "\(count)"
        let rate = Double(count) / first.seconds
        print(mpd.map { String(format: "MPD 0.23 rescan of the same tree: %.0f files/s", $0) } ?? "MPD is not installed")
        BenchRow("library \(label): first index, files/s", value: rate, floor: mpd, format: "%.0f",
                 target: "≥ MPD", ok: mpd.map { rate >= $0 }).emit()
        BenchRow("library \(label): longest poll while indexing, ms", value: first.longestPollMS, floor: nil, format: "%.1f",
                 target: "< 50", ok: first.longestPollMS < 50).emit()
        BenchRow("library \(label): PlayQuery of \(first.playQueued) tracks to sound, ms", value: first.playMS, floor: nil,
                 format: "%.0f", target: "—", ok: nil).emit()
        BenchRow("library \(label): longest poll while queries run, ms", value: first.queryPollMS, floor: nil, format: "%.1f",
                 target: "< 50", ok: first.queryPollMS < 50).emit()
        BenchRow("library \(label): rescan unchanged, s", value: rescan, floor: nil, format: "%.2f", target: "< 2",
                 ok: count < 100_000 ? nil : rescan < 2).emit()
        BenchRow("library \(label): search one word p99, ms", value: oneWord.p99, floor: nil, format: "%.2f", target: "< 10",
                 ok: oneWord.p99 < 10).emit()
        BenchRow("library \(label): search three filters p99, ms", value: threeFilters.p99, floor: nil, format: "%.2f",
                 target: "< 10", ok: threeFilters.p99 < 10).emit()
        BenchRow("library \(label): index bytes per track", value: bytesPerTrack, floor: nil, format: "%.0f", target: "—",
                 ok: nil).emit()
    }
}

/// The generated library: albums of 12 tracks by 500 artists, titles from a small vocabulary (so a word
/// finds about one track in 40), ten genres, years 1950–2019, the seven formats in turn.
enum LibraryTree {
    static let words = ["river", "night", "love", "blue", "road", "home", "light", "rain", "fire", "dream",
                        "heart", "moon", "summer", "city", "ocean", "song", "train", "morning", "gold", "wind",
                        "shadow", "stone", "winter", "angel", "dance", "sky", "star", "time", "world", "hope",
                        "storm", "garden", "paper", "silver", "mountain", "letter", "window", "echo", "harbor", "spring"]
    static let genres = ["Rock", "Jazz", "Folk", "Pop", "Blues", "Soul", "Classical", "Electronic", "Country", "Reggae"]

    static func files(_ count: Int) -> [TaggedTree.File] {
        (0..<count).map { number in
            let album = number / 12, artist = album % 500
            let format = TaggedTree.formats[number % TaggedTree.formats.count]
            return TaggedTree.File("Artist \(artist)/Album \(album)/\(number % 12 + 1).\(format)", [
                "TITLE": "Song \(number) \(words[number % words.count])", "ARTIST": "Artist\(artist)",
                "ALBUM": "Album \(album)", "TRACKNUMBER": "\(number % 12 + 1)", "DATE": "\(1950 + album % 70)",
                "GENRE": genres[album % genres.count],
            ])
        }
    }
}
