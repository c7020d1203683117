import ControlAPI
import CoverArt
import DBus
import FoundationEssentials

/// MPRIS Player properties as Snapcast's stream plugin API names them (`Plugin.Stream.Player.Properties`):
/// lower-case status words, volume in percent, times in seconds, and the track as `metadata`.
enum SnapcastProperties {
    /// With quaverd not on the bus: stopped, nothing can be done.
    static let absent: [String: JSONValue] = [
        "playbackStatus": "stopped", "canControl": false, "canPlay": false, "canPause": false,
        "canSeek": false, "canGoNext": false, "canGoPrevious": false,
    ]

    static func from(_ player: [String: DBusValue], artwork: Artwork) -> [String: JSONValue] {
        guard !player.isEmpty else { return absent }
        var properties: [String: JSONValue] = [
            "playbackStatus": .string((player[PlayerProperty.playbackStatus]?.stringValue ?? "Stopped").lowercased()),
            "loopStatus": .string((player[PlayerProperty.loopStatus]?.stringValue ?? "None").lowercased()),
            "shuffle": .bool(player[PlayerProperty.shuffle]?.boolValue ?? false),
            "volume": .integer(Int(((player[PlayerProperty.volume]?.doubleValue ?? 1) * 100).rounded().clamped(to: 0...100))),
            "rate": .number(player[PlayerProperty.rate]?.doubleValue ?? 1),
            "position": .number(Double(player[PlayerProperty.position]?.int64Value ?? 0) / 1_000_000),
            "metadata": .object(metadata(player[PlayerProperty.metadata]?.dictionaryValue ?? [:], artwork: artwork)),
        ]
        for (mpris, snapcast) in [(PlayerProperty.canGoNext, "canGoNext"), (PlayerProperty.canGoPrevious, "canGoPrevious"),
                                  (PlayerProperty.canPlay, "canPlay"), (PlayerProperty.canPause, "canPause"),
                                  (PlayerProperty.canSeek, "canSeek"), (PlayerProperty.canControl, "canControl")] {
            properties[snapcast] = .bool(player[mpris]?.boolValue ?? false)
        }
        return properties
    }

    /// The MPRIS Metadata map in Snapcast's tag names. A `file://` cover goes as `artData` (the image itself,
    /// which snapserver serves to its clients over HTTP): a path on this machine means nothing to Snapweb.
    static func metadata(_ mpris: [String: DBusValue], artwork: Artwork) -> [String: JSONValue] {
        var tags: [String: JSONValue] = [:]
        if let id = mpris[MetadataKey.trackID]?.objectPathValue { tags["trackId"] = .string(id.description) }
        if let length = mpris[MetadataKey.length]?.int64Value { tags["duration"] = .number(Double(length) / 1_000_000) }
        for (key, tag) in [(MetadataKey.title, "title"), (MetadataKey.album, "album"), (MetadataKey.url, "url"),
                           (MetadataKey.contentCreated, "contentCreated")] {
            if let text = mpris[key]?.stringValue { tags[tag] = .string(text) }
        }
        for (key, tag) in [(MetadataKey.artist, "artist"), (MetadataKey.albumArtist, "albumArtist"), (MetadataKey.genre, "genre"),
                           (MetadataKey.composer, "composer")] {
            if let list = mpris[key]?.stringArrayValue, !list.isEmpty { tags[tag] = .array(list.map(JSONValue.string)) }
        }
        for (key, tag) in [(MetadataKey.trackNumber, "trackNumber"), (MetadataKey.discNumber, "discNumber")] {
            if let number = mpris[key]?.int64Value { tags[tag] = .integer(Int(number)) }
        }
        if let url = mpris[MetadataKey.artURL]?.stringValue {
            if let image = artwork.image(at: url) {
                tags["artData"] = .object(image.mapValues(JSONValue.string))
            } else if !url.hasPrefix("file:") {
                tags["artUrl"] = .string(url)
            }
        }
        return tags
    }
}

/// Local cover files read once each, as snapserver's `artData`: `{"data": base64, "extension": "png"}`.
///
/// snapserver serves `artData` to every client on the network, so the plugin sends only what it has
/// vetted itself with quaverd's rules (`CoverFile`): a regular file, not a symbolic link, an image by its
/// bytes and within `ImageHeader.maximumSide`, the bytes checked being the bytes sent. quaverd advertises
/// only such covers; the plugin checks again because a file can change between the two reads.
final class Artwork {
    /// Larger files are not sent (Quaver's cached covers are far smaller).
    static let maximumBytes = 4 << 20
    private var images: [String: [String: String]] = [:]

    func image(at url: String) -> [String: String]? {
        if let image = images[url] { return image }
        guard let file = URL(string: url), file.isFileURL,
              case .success(let cover) = CoverFile.contents(at: file.path, maximumBytes: Self.maximumBytes) else { return nil }
        let image = ["data": Data(cover.bytes).base64EncodedString(), "extension": cover.header.format.rawValue]
        images = [url: image]  // the current track's cover only
        return image
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
