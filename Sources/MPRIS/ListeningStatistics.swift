import ControlAPI
import DBus
import PlayerCore

/// What the listening history knows of a track, as MPRIS publishes it (`xesam:useCount`, `xesam:lastUsed`,
/// `xesam:userRating`) and `org.quaver.Quaver1.GetHistory` lists it.
public struct ListeningStatistics: Equatable, Sendable {
    public var playCount: Int
    public var skipCount: Int
    /// Seconds since 1970; nil: never counted as listened to.
    public var lastPlayed: Int64?
    public var firstAdded: Int64
    /// 0…5 stars; nil: not rated.
    public var rating: Int?

    public init(playCount: Int, skipCount: Int, lastPlayed: Int64?, firstAdded: Int64, rating: Int?) {
        self.playCount = playCount
        self.skipCount = skipCount
        self.lastPlayed = lastPlayed
        self.firstAdded = firstAdded
        self.rating = rating
    }

    /// The metadata entries for what is known: a use count once played, the last use, a rating when rated.
    var metadataEntries: [String: DBusValue] {
        var entries: [String: DBusValue] = [:]
        if playCount > 0 { entries[MetadataKey.useCount] = .int32(Int32(clamping: playCount)) }
        if let lastPlayed { entries[MetadataKey.lastUsed] = .string(ISO8601.format(secondsSince1970: lastPlayed)) }
        if let rating { entries[MetadataKey.userRating] = .double(Double(rating) / 5) }
        return entries
    }
}

/// Where MPRIS reads the listening history and sends ratings (the daemon wires the history recorder in).
public protocol ListeningStatisticsSource: AnyObject {
    func statistics(of uri: String) -> ListeningStatistics?
    /// Sets (0…5) or clears (nil) a track's rating.
    func rate(_ uri: String, stars: Int?)
    /// Every track the history knows, in no particular order.
    var allTracks: [(uri: String, statistics: ListeningStatistics)] { get }
    /// When each playlist (by id) was last played, seconds since 1970.
    var playlistPlays: [String: Int64] { get }
    func playlistPlayed(_ id: String)
}

/// `2026-11-26T14:30:00Z`: xesam dates are ISO 8601; UTC, so no time zone database is needed.
enum ISO8601 {
    static func format(secondsSince1970 seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        return String(format: year, 4) + "-" + String(format: month, 2) + "-" + String(format: day, 2) + "T"
            + String(format: secondOfDay / 3600, 2) + ":" + String(format: secondOfDay / 60 % 60, 2) + ":"
            + String(format: secondOfDay % 60, 2) + "Z"
    }

    /// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date of a day number.
    static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

private extension String {
    /// `value` in decimal with leading zeros to `width` digits.
    init(format value: Int64, _ width: Int) {
        let digits = String(value)
        self = String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
    }
}

extension MPRISService {
    /// A track's listening history changed: the current track's Metadata is sent again if it is that one.
    public func listeningStatisticsChanged(uri: String) {
        metadataMap.forgetBuilt()
        guard let current = player.currentTrackID, player.uri(of: current) == uri else { return }
        if !tracksWithNewMetadata.contains(current) { tracksWithNewMetadata.append(current) }
        batcher.markChanged(Self.playerInterface)
    }
}
