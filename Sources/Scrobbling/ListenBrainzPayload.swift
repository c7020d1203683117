// Scrobbling: listens sent to ListenBrainz, or any server speaking its API (Maloja, Koito, multi-scrobbler). An
// adapter: imports ListeningHistory (the waiting listens), RemoteMedia (HTTP), QuaverVersion, swift-log.
import FoundationEssentials
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
        json(Submission(listenType: listens.count == 1 ? "single" : "import",
                        payload: listens.map { Item(listenedAt: $0.listenedAt, trackMetadata: metadata($0)) }))
    }

    static func playingNow(_ listen: Listen) -> [UInt8] {
        json(Submission(listenType: "playing_now", payload: [Item(listenedAt: nil, trackMetadata: metadata(listen))]))
    }

    private static func metadata(_ listen: Listen) -> TrackMetadata {
        let ids = listen.musicBrainz
        let info = AdditionalInfo(durationMs: listen.durationSeconds.map { $0 * 1000 }, tracknumber: listen.trackNumber,
                                  recordingMbid: ids.recording.isEmpty ? nil : ids.recording,
                                  releaseMbid: ids.release.isEmpty ? nil : ids.release,
                                  artistMbids: ids.artist.isEmpty ? nil : [ids.artist])
        return TrackMetadata(artistName: listen.artist ?? "", trackName: listen.title ?? "",
                             releaseName: listen.album?.isEmpty == false ? listen.album : nil, additionalInfo: info)
    }

    /// Keys sorted, as the tests and the server's logs read them; absent values left out.
    private static func json(_ submission: Submission) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return Array((try? encoder.encode(submission)) ?? Data("{}".utf8))
    }

    // The API's objects (snake_case keys: listen_type, track_metadata, …).
    private struct Submission: Encodable {
        let listenType: String
        let payload: [Item]
    }

    private struct Item: Encodable {
        let listenedAt: Int64?
        let trackMetadata: TrackMetadata
    }

    private struct TrackMetadata: Encodable {
        let artistName: String
        let trackName: String
        let releaseName: String?
        let additionalInfo: AdditionalInfo
    }

    private struct AdditionalInfo: Encodable {
        var submissionClient = "Quaver"
        var submissionClientVersion = quaverVersion
        var mediaPlayer = "Quaver"
        let durationMs: Int?
        let tracknumber: Int?
        let recordingMbid: String?
        let releaseMbid: String?
        let artistMbids: [String]?
    }
}
