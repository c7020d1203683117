import DBus

/// The queue as org.quaver.Quaver1.GetQueue returns it, and how users name its entries.
struct QueueSnapshot {
    struct Entry {
        let id: ObjectPath
        let metadata: TrackInfo
    }

    let entries: [Entry]
    let current: ObjectPath

    init(_ client: PlayerClient) throws {
        let reply = try client.call(PlayerClient.quaver, "GetQueue").checked("a(oa{sv})o")
        entries = (reply[0].arrayValue ?? []).compactMap { entry in
            guard let fields = entry.arrayValue, let id = fields[0].objectPathValue else { return nil }
            return Entry(id: id, metadata: TrackInfo(fields[1].dictionaryValue ?? [:]))
        }
        current = reply[1].objectPathValue ?? "/"
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
    /// Microseconds (`mpris:length`), nil for streams and when not known yet.
    let length: Int64?
    let trackID: ObjectPath?

    init(_ metadata: [String: DBusValue]) {
        title = metadata["xesam:title"]?.stringValue ?? ""
        artists = metadata["xesam:artist"]?.stringArrayValue ?? []
        length = metadata["mpris:length"]?.int64Value
        trackID = metadata["mpris:trackid"]?.objectPathValue
    }

    /// `Title – Artist`, or the title alone.
    var label: String {
        artists.isEmpty ? title : "\(title) – \(artists.joined(separator: ", "))"
    }
}
