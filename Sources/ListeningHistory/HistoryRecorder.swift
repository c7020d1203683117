import Dispatch
import EventLoop
import Logging
import PlayerCore

/// Keeps the listening history as the player plays: a `ListenCounter` decides what counts, this records it.
///
/// The loop keeps a copy of every track's history (`tracks`), read from the file at start on the history queue and
/// changed on the loop first, so MPRIS metadata reads it without waiting; every change is then written on the
/// history queue, one transaction each. Listens also wait there for ListenBrainz (`onListen` tells the sender).
public final class HistoryRecorder: PlayerObserver {
    private let player: Player
    private let database: HistoryDatabase?
    private let queue = DispatchQueue(label: "quaver.history")
    private let now: () -> Int64
    private let log: Logger
    private var counter: ListenCounter?
    private var ticker: LoopSource?
    public private(set) var tracks: [String: TrackHistory] = [:]
    /// When each playlist (by id) was last played.
    public private(set) var playlistPlays: [String: Int64] = [:]

    /// A track's history changed (URI): its MPRIS metadata is out of date.
    public var onTrackChanged: ((String) -> Void)?
    /// A track started playing (ListenBrainz's `playing_now`), with its tags as known then.
    public var onStarted: ((ListenCounter.Play) -> Void)?
    /// A listen counted and was written (in the file, waiting to be sent), on the loop.
    public var onListen: ((Listen, ListenCounter.Play) -> Void)?
    /// A track's MusicBrainz ids (URI), when something knows them (the music library), for its listens.
    public var musicBrainzTags: ((String) -> MusicBrainzTags?)?

    /// - Parameters:
    ///   - database: nil when the file could not be opened: nothing is kept, everything else works.
    ///   - now: seconds since 1970.
    public init(player: Player, database: HistoryDatabase?, now: @escaping () -> Int64, log: Logger) {
        self.player = player
        self.database = database
        self.now = now
        self.log = log
        counter = ListenCounter(player: player, now: now) { [weak self] in self?.counted($0) }
        player.addObserver(self)
    }

    /// Reads the file's history on the history queue; it joins what the loop recorded meanwhile.
    public func load() {
        queue.async { [database, log] in
            let stored: [String: TrackHistory], plays: [String: Int64]
            do {
                stored = try database?.all() ?? [:]
                plays = try database?.playlistPlays() ?? [:]
            } catch {
                log.error("the listening history cannot be read: \(error)")
                return
            }
            EventLoop.main.post { [weak self] in
                // A track only noted as queued meanwhile takes what the file knows of it.
                self?.tracks.merge(stored) { mine, theirs in mine == TrackHistory(firstAdded: mine.firstAdded) ? theirs : mine }
                self?.playlistPlays.merge(plays) { mine, _ in mine }
                self?.noteQueued()
            }
        }
    }

    /// Runs `work` with the file on the history queue; a failure is one log line (a full disk loses that change).
    public func write(_ what: String, _ work: @escaping (HistoryDatabase) throws -> Void) {
        guard let database else { return }
        queue.async { [log] in
            do { try work(database) } catch { log.error("cannot record \(what) in the listening history: \(error)") }
        }
    }

    public func playerDidChange(_ change: PlayerChange) {
        switch change {
        case .status(let status):
            tick(status == .playing)
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
        write("a rating") { try $0.setRating(uri, stars, at: time) }
    }

    /// A playlist was loaded to be played.
    public func playlistPlayed(_ id: String) {
        let time = now()
        playlistPlays[id] = time
        write("a playlist played") { try $0.recordPlaylistPlayed(id, at: time) }
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
        guard let database else { return }
        queue.async { [log, listen] in
            do {
                try database.recordListen(listen)
                EventLoop.main.post { [weak self] in self?.onListen?(listen, play) }
            } catch {
                log.error("cannot record a listen in the listening history: \(error)")
            }
        }
    }

    private func skipped(_ play: ListenCounter.Play) {
        let uri = play.track.uri, time = now()
        tracks[uri, default: TrackHistory(firstAdded: time)].skipCount += 1
        onTrackChanged?(uri)
        write("a skip") { try $0.recordSkip(uri, at: time) }
    }

    /// Playing time is sampled once a second while playing, so a listen counts within a second of its due time.
    private func tick(_ playing: Bool) {
        guard playing != (ticker != nil) else { return }
        ticker?.cancel()
        ticker = playing ? EventLoop.main.schedule(after: 1, repeating: true) { [weak self] in self?.counter?.sample() } : nil
    }

    /// Tracks queued for the first time get their date: those of `added`, or of the whole queue (at start, after a
    /// replace). The whole queue is read from a snapshot on the history queue: a restored queue of 100 000 is not
    /// looked up on the loop. An addition names its own tracks only: `quaver add` of a folder of 20 000 comes in
    /// slices of 2 000, and a snapshot per slice had the loop look up to 110 000 URIs (the queue so far, each time),
    /// and copy the whole queue at the next slice while the snapshot still shared its storage.
    private func noteQueued(_ added: [String]? = nil) {
        // Checked and noted on the loop: a copy of `tracks` handed to the history queue was copied again by
        // the loop's next change (copy on write), once per slice of a long edit: PlayQuery of 100 000 tracks
        // held the loop 998 ms.
        let time = now()
        var new: [String] = []
        func note(_ uri: String) {
            guard tracks[uri] == nil else { return }
            tracks[uri] = TrackHistory(firstAdded: time)
            new.append(uri)
        }
        if let added { added.forEach(note) } else { player.queueSnapshot.forEach { note($0.uri) } }
        guard !new.isEmpty else { return }
        queue.async { [database, log, new] in
            do { try database?.recordAdded(new, at: time) } catch { log.error("cannot record queued tracks: \(error)") }
        }
    }
}
