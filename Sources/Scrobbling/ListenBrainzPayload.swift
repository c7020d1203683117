// Scrobbling: listens sent to ListenBrainz, or any server speaking its API (Maloja, Koito, multi-scrobbler). An
// adapter: imports ListeningHistory (the waiting listens), RemoteMedia (HTTP), QuaverVersion, swift-log.
import Foundation
import ListeningHistory
import QuaverVersion

/// The JSON of `POST /1/submit-listens` (ListenBrainz API: `listen_type` single, import or playing_now, and a
/// `payload` of listens with `track_metadata`).
enum ListenBrainzPayload {
    /// A listen of a track shorter than this is not sent (ListenBrainz's own rule).
    static let shortestTrackSeconds = 30
    /// The API takes at most this many listens per request.
    static let largestBatch = 100

    /// Whether a listen may be sent: it needs an artist and a title (an untitled radio stream has neither), and a
    /// track of known length must be 30 s or longer.
    static func isSendable(_ listen: Listen) -> Bool {
        guard let artist = listen.artist, !artist.isEmpty, let title = listen.title, !title.isEmpty else { return false }
        return (listen.durationSeconds ?? shortestTrackSeconds) >= shortestTrackSeconds
    }

    /// `single` for one listen, `import` for a batch (listens made while offline).
    static func listens(_ listens: [Listen]) -> [UInt8] {
        let payload = listens.map { listen -> [String: Any] in
            ["listened_at": listen.listenedAt, "track_metadata": metadata(listen)]
        }
        return json(["listen_type": listens.count == 1 ? "single" : "import", "payload": payload])
    }

    static func playingNow(_ listen: Listen) -> [UInt8] {
        json(["listen_type": "playing_now", "payload": [["track_metadata": metadata(listen)]]])
    }

    private static func metadata(_ listen: Listen) -> [String: Any] {
        var info: [String: Any] = ["submission_client": "Quaver", "submission_client_version": quaverVersion,
                                   "media_player": "Quaver"]
        if let seconds = listen.durationSeconds { info["duration_ms"] = seconds * 1000 }
        if let number = listen.trackNumber { info["tracknumber"] = number }
        let ids = listen.musicBrainz
        if !ids.recording.isEmpty { info["recording_mbid"] = ids.recording }
        if !ids.release.isEmpty { info["release_mbid"] = ids.release }
        if !ids.artist.isEmpty { info["artist_mbids"] = [ids.artist] }
        var metadata: [String: Any] = ["artist_name": listen.artist ?? "", "track_name": listen.title ?? "",
                                       "additional_info": info]
        if let album = listen.album, !album.isEmpty { metadata["release_name"] = album }
        return metadata
    }

    private static func json(_ object: [String: Any]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8))
    }
}
