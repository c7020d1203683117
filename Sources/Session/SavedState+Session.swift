import ControlAPI
import FoundationEssentials
import PlayerCore
import StateStore

// The session adapter: the player's session kept in the state file across restarts and crashes.
//   Player (core) ──changes──▶ SessionRecorder ──snapshots──▶ StateSaver (StateStore: writes off the loop)
// It may import PlayerCore, ControlAPI (the LoopStatus spellings the state file uses), StateStore,
// EventLoop and Logging; it sees neither GStreamer nor D-Bus.
//
// The state file holds plain values (StateStore knows nothing of the core); these convert both ways.

extension SavedState {
    /// The player as it is now, with `queue` (left empty when the saver builds it later off the loop).
    init(_ player: Player, queue: [SavedTrack]) {
        let current = player.currentTrackID.flatMap(player.index(of:))
        self.init(queue: queue, currentIndex: current, positionMicroseconds: player.position.wholeMicroseconds,
                  volume: player.volume, rate: player.rate, loopMode: player.loopMode.savedName,
                  shuffle: player.isShuffled, wasPlaying: player.status == .playing)
    }

    /// The sleep timer's mode, in the state file's spelling.
    mutating func record(_ mode: SleepMode) {
        sleepTimer = nil
        sleepDeadlineMicroseconds = nil
        switch mode {
        case .off: break
        case .at(let deadline):
            sleepTimer = SleepTimerSpelling.time.rawValue
            sleepDeadlineMicroseconds = deadline.wholeMicroseconds
        case .endOfTrack: sleepTimer = SleepTimerSpelling.endOfTrack.rawValue
        case .endOfAlbum: sleepTimer = SleepTimerSpelling.endOfAlbum.rawValue
        }
    }

    /// The equaliser, in the state file's form: gains and preset name, both absent when off.
    mutating func record(_ equalizer: EqualizerState) {
        guard case .on(let setting, let preset) = equalizer else { return (self.equalizer, equalizerPreset) = (nil, nil) }
        (self.equalizer, equalizerPreset) = (setting.values, preset)
    }

    /// The equaliser read back; values that are no longer valid (a file edited by hand) leave it off.
    func equalizerState() -> EqualizerState {
        guard let values = equalizer, let setting = try? EqualizerSetting(values: values) else { return .off }
        return .on(setting, preset: equalizerPreset ?? EqualizerPresets.custom)
    }

    /// What the sleep timer is to wait for again; the track modes name the restored current track.
    func sleepRequest() -> SleepRestore? {
        switch sleepTimer.flatMap(SleepTimerSpelling.init(rawValue:)) {
        case .time?: return sleepDeadlineMicroseconds.map { .deadline(.microseconds($0)) }
        case .endOfTrack?: return .request(.endOfTrack)
        case .endOfAlbum?: return .request(.endOfAlbum)
        case .off?, nil: return nil
        }
    }

    /// The session to restore: paused at the saved position, or playing if it was and `resumePaused` is off.
    /// At most the first `InputLimits.maximumQueueLength` tracks (a file written by hand, or by a version
    /// without the limit); a current track past them is left out with them.
    func session(resumePaused: Bool) -> PlayerSession {
        var entries = PreparedEntries()
        let kept = queue.prefix(InputLimits.maximumQueueLength)
        for track in kept { entries.append(track.entry) }
        return PlayerSession(entries: entries, currentIndex: currentIndex.flatMap { $0 < kept.count ? $0 : nil },
                      position: .microseconds(positionMicroseconds),
                      status: wasPlaying && !resumePaused ? .playing : .paused, volume: volume, rate: rate,
                      loopMode: LoopMode(savedName: loopMode), shuffle: shuffle)
    }
}

/// A sleep timer read back from the state file.
enum SleepRestore: Sendable {
    case deadline(Duration)
    case request(SleepRequest)
}

extension SavedTrack {
    init(_ track: Track) {
        self.init(uri: track.uri, metadata: SavedMetadata(track))
    }

    var entry: QueueEntry {
        QueueEntry(uri: uri, tags: metadata?.tags ?? TrackTags(),
                   duration: metadata?.lengthMicroseconds.map { .microseconds($0) })
    }
}

extension SavedMetadata {
    /// What is known of `track`, or `nil` when nothing is (most of a fresh queue: keeps the file small).
    init?(_ track: Track) {
        let tags = track.tags
        guard tags.title != nil || !tags.artists.isEmpty || tags.album != nil || track.duration != nil else { return nil }
        self.init(title: tags.title, artists: tags.artists, album: tags.album, albumArtists: tags.albumArtists,
                  trackNumber: tags.trackNumber, discNumber: tags.discNumber,
                  lengthMicroseconds: track.duration?.wholeMicroseconds)
    }

    var tags: TrackTags {
        var tags = TrackTags()
        tags.title = title
        tags.artists = artists
        tags.album = album
        tags.albumArtists = albumArtists
        tags.trackNumber = trackNumber
        tags.discNumber = discNumber
        return tags
    }
}

extension LoopMode {
    /// The MPRIS LoopStatus names, which the state file uses.
    var savedName: String { ControlAPI.LoopStatus(self).rawValue }

    /// An unknown name (a file from a newer Quaver) means no looping.
    init(savedName: String) { self = ControlAPI.LoopStatus(rawValue: savedName)?.loopMode ?? .none }
}

extension Duration {
    /// Microseconds, as the state file stores times (positions and lengths, far from Int64's limits).
    var wholeMicroseconds: Int64 { Int64((self / .microseconds(1)).rounded()) }
}
