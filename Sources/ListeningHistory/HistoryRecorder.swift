import Dispatch
import EventLoop
import Logging
import PlayerCore
import Synchronization

/// Keeps the listening history as the player plays: a `ListenCounter` decides what counts, this records it.
///
/// The loop keeps a copy of the history of every track played, skipped or rated (`tracks`), read from the file at
/// start on the history queue and changed on the loop first, so MPRIS metadata reads it without waiting; every
/// change is then written on the history queue: into the file while nothing plays, into the journal while music
/// plays (`HistoryJournal`), so SQLite is not loaded then; the journal is folded into the file when playing stops or
/// pauses, when it reaches `journalBound`, and before the file is read (at start, for ListenBrainz, at the daemon's
/// stop). When a track was first queued is kept in the file only, and taken from it at the fold once the track is
/// played, skipped or rated. Listens also wait there for ListenBrainz (`onListen` tells the sender).
/// The file is open only while the history queue has work (`onQueue`, `HistoryConnection.closeWhileIdle`).
public final class HistoryRecorder: PlayerObserver {
    private let player: Player
    /// nil when the file could not be opened: nothing is kept, everything else works. Touched on `queue` only.
    private let connection: HistoryConnection?
    private let queue = DispatchQueue(label: "quaver.history")
    /// Work given to `queue` and not finished; the last to finish closes the file (`HistoryConnection.closeWhileIdle`).
    private let unfinished = Atomic(0)
    private let now: () -> Int64
    private let log: Logger
    private var counter: ListenCounter?
    private var ticker: LoopSource?
    /// Folds the journal once the player has stayed out of Playing for `stillSeconds` (`foldOnceStill`).
    private var stillness: LoopSource?
    public private(set) var tracks: [String: TrackHistory] = [:]
    /// When each playlist (by id) was last played.
    public private(set) var playlistPlays: [String: Int64] = [:]

    /// A track's history changed (URI): its MPRIS metadata is out of date.
    public var onTrackChanged: ((String) -> Void)?
    /// A track started playing (ListenBrainz's `playing_now`), with its tags as known then.
    public var onStarted: ((ListenCounter.Play) -> Void)?
    /// A listen counted and was written (in the journal, waiting to be sent: `foldJournalAndWait` before reading
    /// the file), on the loop.
    public var onListen: ((Listen, ListenCounter.Play) -> Void)?
    /// A track's MusicBrainz ids (URI), when something knows them (the music library), for its listens.
    public var musicBrainzTags: ((String) -> MusicBrainzTags?)?

    /// - Parameters:
    ///   - connection: nil when the file could not be opened: nothing is kept, everything else works.
    ///   - now: seconds since 1970.
    public init(player: Player, connection: HistoryConnection?, now: @escaping () -> Int64, log: Logger) {
        self.player = player
        self.connection = connection
        self.now = now
        self.log = log
        counter = ListenCounter(player: player, now: now) { [weak self] in self?.counted($0) }
        player.addObserver(self)
    }

    /// Folds in what a killed daemon left in the journal, then reads the file's history on the history queue; it
    /// joins what the loop recorded meanwhile. A file not made yet, with no journal, holds nothing: the queue (and
    /// the Dispatch thread it would start) is left alone until the first write.
    public func load() {
        guard let connection, connection.wasThereAtStart || connection.journal.isThere else {
            return EventLoop.main.post { [weak self] in self?.noteQueued() }
        }
        onQueue { [self, log] in
            foldJournal()
            let stored: [String: TrackHistory], plays: [String: Int64]
            do {
                let database = try connection.forReading()
                stored = try database?.tracksWithActivity() ?? [:]
                plays = try database?.playlistPlays() ?? [:]
            } catch {
                log.error("the listening history cannot be read: \(error)")
                return
            }
            EventLoop.main.post { [weak self] in
                self?.tracks.merge(stored) { mine, _ in mine }
                self?.playlistPlays.merge(plays) { mine, _ in mine }
                self?.noteQueued()
            }
        }
    }

    /// The journal's size at which it is folded even while music plays, so it never grows without limit: a fold
    /// every thousand changes, or every 256 KiB (a queueing of a few thousand tracks is one change).
    public static let journalBound = (changes: 1000, bytes: 256 << 10)

    /// Records `change` on the history queue: while music plays (as the loop sees it now: a track opened and played
    /// is one batch, so its queueing counts as played) it is appended to the journal, folded in once it reaches its
    /// bound; otherwise the journal is folded in and the change written straight into the file, after it (or
    /// appended, if the journal could not be folded, to keep the order). A failure is one log line (a full disk
    /// loses that change).
    private func journal(_ made: @escaping @autoclosure () -> HistoryChange, then: (() -> Void)? = nil) {
        guard let connection else { return }
        let playing = player.status == .playing
        onQueue { [self] in
            guard connection.canWrite else { return }  // the file cannot be made: the journal would only grow
            let change = made()  // a whole queue's URIs are gathered here, off the loop
            do {
                if playing || !foldJournal() {
                    let size = try connection.journal.append(change)
                    let bound = Self.journalBound
                    if connection.journal.appended >= bound.changes || size >= bound.bytes { foldJournal() }
                } else if let database = Self.opened(connection, log: log) {
                    try database.record(change)
                    try learnFirstAdded(of: [change.changedTrack].compactMap { $0 }, from: database)
                }
                then.map { EventLoop.main.post($0) }
            } catch {
                log.error("cannot record \(change.what) in the listening history: \(error)")
            }
        }
    }

    /// Folds the journal into the file and waits: before something else reads the file (the ListenBrainz sender,
    /// on its own thread) and at the daemon's stop. Not to be called on the history queue.
    public func foldJournalAndWait() {
        guard connection != nil else { return }
        onQueue(waiting: true) { self.foldJournal() }
    }

    /// On the history queue: the journal's changes into the file, in one transaction, then the journal removed (a
    /// kill between the two folds it again, and the file skips what it has: `HistoryDatabase.fold`); the loop
    /// learns the changed tracks' first-added dates. No journal, no SQLite. True when no journal is left.
    @discardableResult
    private func foldJournal() -> Bool {
        guard let connection else { return true }
        do {
            guard let contents = try connection.journal.read() else { return true }
            if contents.unreadable > 0 {
                log.warning("\(contents.unreadable) line(s) of \(connection.journal.path) unreadable (cut short by a kill while written, or changed): skipped")
            }
            guard let database = Self.opened(connection, log: log) else { return false }
            let changed = try database.fold(contents)
            try connection.journal.remove()
            try learnFirstAdded(of: changed, from: database)
            return true
        } catch {
            log.error("cannot fold the journal into the listening history: \(error)")
            return !connection.journal.isThere
        }
    }

    /// Gives the loop's copy the dates the file has of `uris`' first queueing (the loop's copy did not keep them
    /// while the tracks were only queued), on the history queue.
    private func learnFirstAdded(of uris: [String], from database: HistoryDatabase) throws {
        var dates: [String: Int64] = [:]
        for uri in Set(uris) { dates[uri] = try database.firstAdded(uri) }
        EventLoop.main.post { [weak self] in dates.forEach { self?.learn($0.value, of: $0.key) } }
    }

    /// Runs `work` on the history queue (`waiting` for it to end); the file is closed after the last work given to
    /// it, until the next.
    private func onQueue(waiting: Bool = false, _ work: @escaping () -> Void) {
        unfinished.add(1, ordering: .relaxed)
        let run = { [self] in
            work()
            if unfinished.subtract(1, ordering: .relaxed).newValue == 0 { connection?.closeWhileIdle() }
        }
        if waiting { queue.sync { run() } } else { queue.async { run() } }
    }

    /// The file for a write, made by the first one; a file that cannot be made is said once, as at start.
    private static func opened(_ connection: HistoryConnection, log: Logger) -> HistoryDatabase? {
        do {
            return try connection.forWriting()
        } catch {
            log.error("the listening history will not be kept: \(error)")
            return nil
        }
    }

    public func playerDidChange(_ change: PlayerChange) {
        switch change {
        case .status(let status):
            tick(status == .playing)
            foldOnceStill(status != .playing)
        case .tracksAdded(let ids, _):
            noteQueued(ids.compactMap(player.uri(of:)))
        case .queueReplaced:
            noteQueued()
        default:
            break
        }
    }

    // MARK: Ratings

    /// Sets (0…5) or clears (nil) a track's rating.
    public func rate(_ uri: String, _ stars: Int?) {
        let time = now()
        tracks[uri, default: TrackHistory(firstAdded: time)].rating = stars
        onTrackChanged?(uri)
        journal(.rating(uri, stars: stars, at: time))
    }

    /// A playlist was loaded to be played.
    public func playlistPlayed(_ id: String) {
        let time = now()
        playlistPlays[id] = time
        journal(.playlistPlayed(id, at: time))
    }

    // MARK: Counting

    private func counted(_ event: ListenCounter.Event) {
        switch event {
        case .started(let play): onStarted?(play)
        case .listened(let play): listened(play)
        case .skipped(let play): skipped(play)
        }
    }

    private func listened(_ play: ListenCounter.Play) {
        let track = play.track, time = play.startedAt
        var history = tracks[track.uri] ?? TrackHistory(firstAdded: time)
        history.playCount += 1
        history.lastPlayed = time
        tracks[track.uri] = history
        onTrackChanged?(track.uri)
        var listen = Listen(play)
        listen.musicBrainz = musicBrainzTags?(track.uri) ?? MusicBrainzTags()
        journal(.listen(listen)) { [weak self] in self?.onListen?(listen, play) }
    }

    private func skipped(_ play: ListenCounter.Play) {
        let uri = play.track.uri, time = now()
        tracks[uri, default: TrackHistory(firstAdded: time)].skipCount += 1
        onTrackChanged?(uri)
        journal(.skip(uri, at: time))
    }

    private func learn(_ firstAdded: Int64?, of uri: String) {
        if let firstAdded { tracks[uri]?.firstAdded = firstAdded }
    }

    /// How long the player stays out of Playing before what waited in the journal is folded: a file opened or a
    /// track skipped to while playing passes the player through Stopped for a moment, and a fold then loaded
    /// SQLite beside the next track's pipeline (1.3 MB at the peak while playing).
    static let stillSeconds = 1.0

    /// What waited while playing is folded once the player has stayed stopped or paused `stillSeconds`.
    private func foldOnceStill(_ notPlaying: Bool) {
        stillness?.cancel()
        stillness = notPlaying ? EventLoop.main.schedule(after: Self.stillSeconds) { [weak self] in
            guard let self else { return }
            stillness = nil
            onQueue { self.foldJournal() }
        } : nil
    }

    /// Playing time is sampled once a second while playing, so a listen counts within a second of its due time.
    private func tick(_ playing: Bool) {
        guard playing != (ticker != nil) else { return }
        ticker?.cancel()
        ticker = playing ? EventLoop.main.schedule(after: 1, repeating: true) { [weak self] in self?.counter?.sample() } : nil
    }

    /// Tracks queued for the first time get their date in the file (`INSERT OR IGNORE`: those it knows keep theirs):
    /// those of `added`, or of the whole queue (at start, after a replace). The loop only names the URIs of an
    /// addition, which comes in slices (`quaver add` of a folder of 20 000, 2 000 a slice at most); the whole queue
    /// is read from a snapshot on the history queue, so a restored queue of 100 000 is not walked on the loop.
    /// Nothing is kept on the loop for a track only queued. With a table of every queued URI on the loop, 100 000
    /// queued tracks cost 37 MB more, and a restart on them held a client 1.1 s (queue-scale, release build).
    private func noteQueued(_ added: [String]? = nil) {
        let time = now()
        if let added {
            guard !added.isEmpty else { return }
            return journal(.added(added, at: time))
        }
        let snapshot = player.queueSnapshot
        guard snapshot.count > 0 else { return }
        journal(.added(Self.uris(of: snapshot), at: time))
    }

    private static func uris(of snapshot: QueueSnapshot) -> [String] {
        var uris: [String] = []
        uris.reserveCapacity(snapshot.count)
        snapshot.forEach { uris.append($0.uri) }
        return uris
    }
}
