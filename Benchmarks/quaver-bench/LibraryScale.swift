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
        /// The longest wait of a poll of the floor service (`BenchFloorService`) beside each poll of quaverd.
        var floorPollMS = 0.0
        /// Polls over 20 ms: their wait, when they were asked (seconds after quaverd was spawned), and what
        /// quaverd's loop thread, the bus daemon and this client did meanwhile.
        var slowPolls: [SlowPoll] = []
        var peakRSSKiB = 0
        var restRSSKiB = 0
        var playQueued = 0
        var playMS = 0.0
        /// The longest wait of a client polling every 20 ms while the heaviest queries run (and of one polling the
        /// floor service meanwhile), and each query's time.
        var queryPollMS = 0.0
        var queryFloorPollMS = 0.0
        /// PlayQuery of every track: how many, milliseconds to the position moving, the longest poll meanwhile.
        var everythingQueued = 0
        var everythingMS = 0.0
        var everythingPollMS = 0.0
        var everythingFloorPollMS = 0.0
        var queryMS: [(String, Double)] = []
    }

    /// quaverd started on the tree's home; polled for PlaybackStatus (from its first answer on) until TrackCount
    /// reaches `count`.
    private func indexThroughQuaverd(_ count: Int, home: URL) throws -> FirstIndex {
        let bus = try BenchBus()
        defer { bus.stop() }
        let floor = try BenchFloorService(on: bus)
        defer { floor.stop() }
        let daemon = try BenchQuaverd(on: bus, output: "fakesink", home: home)
        defer { daemon.stop() }
        var figures = FirstIndex()
        // Waits count from quaverd's first answer on, as the soak's do: before it, quaverd is still starting.
        _ = try daemon.client.playbackStatus
        var lastCount: Int64 = 0, lastSample = Date.distantPast
        while lastCount < count {
            let before = SlowPoll.Threads(quaverd: daemon.pid, bus: bus.pid)
            let asked = EventLoop.monotonicMicroseconds
            _ = try daemon.client.playbackStatus
            let waited = Double(EventLoop.monotonicMicroseconds - asked) / 1000
            figures.longestPollMS = max(figures.longestPollMS, waited)
            if waited > 20 {
                figures.slowPolls.append(SlowPoll(ms: waited, at: Double(asked - daemon.spawnedAt) / 1_000_000,
                                                  threads: SlowPoll.Threads(quaverd: daemon.pid, bus: bus.pid) - before))
            }
            figures.floorPollMS = max(figures.floorPollMS, try floor.poll())
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
        try queriesWhilePolling(daemon, bus, floor, into: &figures)
        return figures
    }

    /// The heaviest library calls, one after another, while another client polls `Get(PlaybackStatus)` every
    /// 20 ms: every album and artist, a one-letter search as GNOME Shell asks while the user types, the "Never
    /// played" smart playlist (every track's URI), and `quaver play title:12`.
    private func queriesWhilePolling(_ daemon: BenchQuaverd, _ bus: BenchBus, _ floor: BenchFloorService,
                                     into figures: inout FirstIndex) throws {
        let poll = try PollingClient(address: bus.address) { connection in
            _ = try QuaverClient(connection: connection, timeout: 10).playbackStatus
        }
        let floorPoll = try PollingClient(address: bus.address) { try BenchFloorService.get($0) }
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
        (figures.playQueued, figures.playMS) = try playQuery(daemon, "title:12")
        figures.queryPollMS = poll.stop().longest * 1000
        figures.queryFloorPollMS = floorPoll.stop().longest * 1000
        figures.queryMS = queryMS
        try playEverything(daemon, bus, into: &figures)
    }

    /// `quaver play year:1900..2100`: every track of the library queued and played, while a client polls.
    private func playEverything(_ daemon: BenchQuaverd, _ bus: BenchBus, into figures: inout FirstIndex) throws {
        let poll = try PollingClient(address: bus.address) { connection in
            _ = try QuaverClient(connection: connection, timeout: 10).playbackStatus
        }
        let floorPoll = try PollingClient(address: bus.address) { try BenchFloorService.get($0) }
        (figures.everythingQueued, figures.everythingMS) = try playQuery(daemon, "year:1900..2100")
        figures.everythingPollMS = poll.stop().longest * 1000
        figures.everythingFloorPollMS = floorPoll.stop().longest * 1000
    }

    /// `quaver play QUERY` (`title:12`, titles "Song 12…": 1 111 tracks at 20 000 and at 100 000): milliseconds from
    /// PlayQuery to the position moving (the output is fakesink in real time), and how many tracks were queued.
    private func playQuery(_ daemon: BenchQuaverd, _ query: String) throws -> (Int, Double) {
        let asked = EventLoop.monotonicMicroseconds
        let queued = try daemon.client.playQuery(query)
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

    /// p50 and p99 in milliseconds of a first page (100 tracks and the total) of `query`, and the p99 of the
    /// searching thread's own CPU time (what is left of the wall time is waiting for a CPU or the disk).
    private func latencies(_ catalog: LibraryCatalog, _ query: String) throws -> Latencies {
        var samples: [Double] = [], cpu: [Double] = [], found = 0
        for _ in 0..<searches {
            let started = EventLoop.monotonicMicroseconds, startedCPU = Self.threadCPUMilliseconds()
            found = try catalog.search(SearchQuery(query), offset: 0, limit: 100).total
            samples.append(Double(EventLoop.monotonicMicroseconds - started) / 1000)
            cpu.append(Self.threadCPUMilliseconds() - startedCPU)
        }
        samples.sort()
        cpu.sort()
        let p99 = min(samples.count - 1, samples.count * 99 / 100)
        return Latencies(p50: samples[samples.count / 2], p99: samples[p99], cpuP99: cpu[p99], found: found)
    }

    private struct Latencies {
        let p50: Double
        let p99: Double
        let cpuP99: Double
        let found: Int
    }

    private static func threadCPUMilliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
    }

    private func report(_ count: Int, _ first: FirstIndex, _ mpd: Double?, _ rescan: Double, _ oneWord: Latencies,
                        _ threeFilters: Latencies, _ bytesPerTrack: Double) {
        print(String(format: "%d tracks: first index %.1f s (%.0f files/s), longest Get(PlaybackStatus) %.1f ms, "
                     + "RSS peak %d KiB, after %d KiB; rescan unchanged %.2f s; search 'river' (%d found) p50 %.2f p99 %.2f ms, "
                     + "three filters (%d found) p50 %.2f p99 %.2f ms; %.0f bytes per track",
                     count, first.seconds, Double(count) / first.seconds, first.longestPollMS, first.peakRSSKiB,
                     first.restRSSKiB, rescan, oneWord.found, oneWord.p50, oneWord.p99, threeFilters.found, threeFilters.p50,
                     threeFilters.p99, bytesPerTrack))
        print(String(format: "search p99 of the searching thread's CPU time: one word %.2f ms, three filters %.2f ms",
                     oneWord.cpuP99, threeFilters.cpuP99))
        print(String(format: "PlayQuery of %d tracks to the position moving: %.0f ms", first.playQueued, first.playMS))
        print(String(format: "PlayQuery of all %d tracks to the position moving: %.0f ms; a client polling every 20 ms "
                     + "meanwhile waited at most %.1f ms (the floor service %.1f ms)", first.everythingQueued,
                     first.everythingMS, first.everythingPollMS, first.everythingFloorPollMS))
        print(String(format: "a client polling every 20 ms while the library answered (%@) waited at most %.1f ms",
                     first.queryMS.map { String(format: "%@ %.0f ms", $0.0, $0.1) }.joined(separator: ", "), first.queryPollMS))
        print("polls over 20 ms, ms at s (quaverd's loop thread ran/queued, the bus daemon ran/queued, this client "
              + "queued, ms): " + first.slowPolls.map(\.description).joined(separator: " "))
        print(String(format: "the floor service polled beside quaverd waited at most %.1f ms while indexing, %.1f ms while "
                     + "the library answered", first.floorPollMS, first.queryFloorPollMS))
        let label = count >= 1000 ? "\(count / 1000)k" : "\(count)"
        let rate = Double(count) / first.seconds
        print(mpd.map { String(format: "MPD 0.23 rescan of the same tree: %.0f files/s", $0) } ?? "MPD is not installed")
        BenchRow("library \(label): first index, files/s", value: rate, floor: mpd, format: "%.0f",
                 target: "≥ MPD", ok: mpd.map { rate >= $0 }).emit()
        BenchRow("library \(label): longest poll while indexing, ms", value: first.longestPollMS, floor: first.floorPollMS,
                 format: "%.1f",
                 target: "< 50", ok: first.longestPollMS < 50).emit()
        BenchRow("library \(label): PlayQuery of \(first.playQueued) tracks to sound, ms", value: first.playMS, floor: nil,
                 format: "%.0f", target: "—", ok: nil).emit()
        BenchRow("library \(label): longest poll while queries run, ms", value: first.queryPollMS,
                 floor: first.queryFloorPollMS, format: "%.1f",
                 target: "< 50", ok: first.queryPollMS < 50).emit()
        BenchRow("library \(label): PlayQuery of all \(first.everythingQueued) tracks to sound, ms", value: first.everythingMS,
                 floor: nil, format: "%.0f", target: "—", ok: nil).emit()
        BenchRow("library \(label): longest poll while all are queued, ms", value: first.everythingPollMS,
                 floor: first.everythingFloorPollMS, format: "%.1f", target: "< 50", ok: first.everythingPollMS < 50).emit()
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

/// A poll of quaverd that waited over 20 ms, with what the threads on its way did meanwhile.
private struct SlowPoll: CustomStringConvertible {
    /// quaverd's loop thread (the main thread: its thread id is the process id), the bus daemon and this client.
    struct Threads {
        var loop: ThreadSchedule
        var bus: ThreadSchedule
        var client: ThreadSchedule

        init(quaverd: pid_t, bus: pid_t) {
            loop = ProcessCounters.schedule(quaverd)
            self.bus = ProcessCounters.schedule(bus)
            client = ProcessCounters.schedule(nil)
        }

        init(loop: ThreadSchedule, bus: ThreadSchedule, client: ThreadSchedule) {
            self.loop = loop
            self.bus = bus
            self.client = client
        }

        static func - (after: Threads, before: Threads) -> Threads {
            Threads(loop: after.loop - before.loop, bus: after.bus - before.bus, client: after.client - before.client)
        }
    }

    let ms: Double
    let at: Double
    let threads: Threads

    var description: String {
        String(format: "%.0f@%.2f(%.0f/%.0f,%.0f/%.0f,%.0f)", ms, at, threads.loop.ranMS, threads.loop.queuedMS,
               threads.bus.ranMS, threads.bus.queuedMS, threads.client.queuedMS)
    }
}
