import ControlAPI
import DBus
import QuaverClient

/// The queue as org.quaver.Quaver1.GetQueueRange returns it, page by page, and how users name its entries.
struct QueueSnapshot {
    struct Entry {
        let id: ObjectPath
        let metadata: TrackInfo
    }

    let entries: [Entry]
    let current: ObjectPath

    /// Entries asked for in one call: the daemon answers others between pages.
    static let pageSize: UInt32 = 1000

    init(_ client: QuaverClient) throws {
        var entries: [Entry] = []
        var current: ObjectPath = "/"
        var total = 1
        while entries.count < total {
            let reply = try client.queueRange(from: UInt32(entries.count), count: Self.pageSize).checked("a(oa{sv})ou")
            let page = (reply[0].arrayValue ?? []).compactMap { entry -> Entry? in
                guard let fields = entry.arrayValue, let id = fields[0].objectPathValue else { return nil }
                return Entry(id: id, metadata: TrackInfo(fields[1].dictionaryValue ?? [:]))
            }
            entries += page
            current = reply[1].objectPathValue ?? "/"
            total = Int(reply[2].int64Value ?? 0)
            if page.isEmpty { break }  // the queue shrank meanwhile
        }
        self.entries = entries
        self.current = current
    }

    /// A 1-based index (`3`) or a track id (`/org/quaver/Track/12`).
    func id(of item: String) throws -> ObjectPath {
        if let index = Int(item) {
            guard entries.indices.contains(index - 1) else {
                throw CLIError("no entry \(index): the queue has \(entries.count)")
            }
            return entries[index - 1].id
        }
        guard let entry = entries.first(where: { $0.id.rawValue == item }) else {
            throw CLIError("\(item) is neither an index nor a track id in the queue")
        }
        return entry.id
    }
}

/// The MPRIS metadata fields the CLI shows.
struct TrackInfo {
    let title: String
    let artists: [String]
    let album: String?
    let url: String?
    /// Microseconds (`mpris:length`), nil for streams and when not known yet.
    let length: Int64?
    let trackID: ObjectPath?

    init(_ metadata: [String: DBusValue]) {
        title = metadata[MetadataKey.title]?.stringValue ?? ""
        artists = metadata[MetadataKey.artist]?.stringArrayValue ?? []
        album = metadata[MetadataKey.album]?.stringValue
        url = metadata[MetadataKey.url]?.stringValue
        length = metadata[MetadataKey.length]?.int64Value
        trackID = metadata[MetadataKey.trackID]?.objectPathValue
    }

    /// `Title – Artist`, or the title alone.
    var label: String {
        artists.isEmpty ? title : "\(title) – \(artists.joined(separator: ", "))"
    }
}
