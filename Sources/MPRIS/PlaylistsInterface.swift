import ControlAPI
import DBus
import PlaylistStore

/// `org.mpris.MediaPlayer2.Playlists` (MPRIS 2.2): the saved playlists, and the smart ones (`SmartPlaylist`). Ids are `/org/quaver/Playlist/<hex>`, kept in
/// each file, so they stay the same across restarts and renames. ActivatePlaylist replaces the queue with the
/// playlist and plays it; ActivePlaylist names it until the queue is replaced by something else or cleared.
extension SavedPlaylists {
    /// The orderings GetPlaylists honours: LastPlayDate when the listening history is kept (it records when each
    /// playlist was loaded to be played). UserDefined is left out: there is no order of the user's own.
    var orderings: [String] {
        ["Alphabetical", "CreationDate", "ModifiedDate"] + (mpris.listeningHistory != nil ? ["LastPlayDate"] : [])
    }

    public var interface: InterfaceDescription {
        InterfaceDescription(name: Self.interfaceName, methods: [
            later("ActivatePlaylist", [Argument("PlaylistId", "o")]) { this, args, reply in
                let id = args[0].objectPathValue.flatMap { ControlAPI.PlaylistPath.id(of: $0.rawValue) }
                if let smart = this.smartPlaylists.first(where: { $0.id == id }) {
                    return this.activate(smart, reply)
                }
                guard let id, let playlist = this.fileBacked.first(where: { $0.id == id }) else {
                    throw DBusError.invalidArgs("\(args[0].objectPathValue?.rawValue ?? "?") is not a saved playlist")
                }
                this.load(playlist.name, reply, adding: nil, play: true, answersCount: false)
            },
            InterfaceDescription.Method(
                name: "GetPlaylists",
                inputs: [Argument("Index", "u"), Argument("MaxCount", "u"), Argument("Order", "s"),
                         Argument("ReverseOrder", "b")],
                outputs: [Argument("Playlists", "a(oss)")]) { [weak self] call in
                guard let self else { throw DBusError.failed("the player is shutting down") }
                return [try self.playlists(call.arguments)]
            },
        ], properties: [
            property("PlaylistCount", "u"),
            InterfaceDescription.Property(name: "Orderings", type: "as") { [weak self] in
                .stringArray(self?.orderings ?? [])
            },
            property("ActivePlaylist", "(b(oss))"),
        ], signals: [
            SignalDescription(name: "PlaylistChanged", arguments: [Argument("Playlist", "(oss)")]),
        ])
    }

    private func property(_ name: String, _ type: Signature) -> InterfaceDescription.Property {
        InterfaceDescription.Property(name: name, type: type) { [weak self] in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            self.refreshIfChanged()
            return try self.signalled(name)
        }
    }

    /// GetPlaylists: `MaxCount` from `Index` in `Order` (reversed when asked); past the end gives none.
    private func playlists(_ arguments: [DBusValue]) throws -> DBusValue {
        let index = Int(arguments[0].int64Value ?? 0), maxCount = Int(arguments[1].int64Value ?? 0)
        let order = arguments[2].stringValue ?? "", reverse = arguments[3].boolValue ?? false
        guard let sorted = sorted(by: order) else {
            let known = orderings.joined(separator: ", ")
            throw DBusError.invalidArgs("unknown ordering \"\(order.prefix(64))\": one of \(known)")
        }
        refreshIfChanged()
        let ordered = reverse ? sorted.reversed() : sorted
        let page = ordered.dropFirst(index).prefix(maxCount)
        return .array(element: "(oss)", page.map(value(of:)))
    }

    private func sorted(by order: String) -> [SavedPlaylist]? {
        let byName: (SavedPlaylist, SavedPlaylist) -> Bool = {
            ($0.name.text.lowercased(), $0.name.text) < ($1.name.text.lowercased(), $1.name.text)
        }
        let all = everyPlaylist
        switch order {
        case "Alphabetical": return all.sorted(by: byName)
        case "CreationDate": return all.sorted { $0.created != $1.created ? $0.created < $1.created : byName($0, $1) }
        case "ModifiedDate": return all.sorted { $0.modified != $1.modified ? $0.modified < $1.modified : byName($0, $1) }
        case "LastPlayDate" where orderings.contains(order):
            let plays = mpris.listeningHistory?.playlistPlays ?? [:]
            let played = { (playlist: SavedPlaylist) in plays[playlist.id] ?? 0 }
            return all.sorted { played($0) != played($1) ? played($0) < played($1) : byName($0, $1) }
        default: return nil
        }
    }
}
