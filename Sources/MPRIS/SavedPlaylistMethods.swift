import DBus
import PlayerCore
import PlaylistStore

/// org.quaver.Quaver1's playlist methods: save the queue under a name, load it back (replacing the queue) or add it,
/// list, remove and rename. Each answers once its file work on the worker is done (`SavedPlaylists.perform`).
extension SavedPlaylists {
    typealias Argument = InterfaceDescription.Argument

    /// Joined to org.quaver.Quaver1's own methods (`QuaverInterface(mpris:version:playlists:)`).
    func quaverMethods(position: @escaping (String) throws -> QueuePosition) -> [InterfaceDescription.Method] {
        [
            later("SavePlaylist", [Argument("name", "s")], outputs: [Argument("id", "o")]) { this, args, reply in
                let name = try Self.name(args[0])
                let tracks = this.mpris.player.queueSnapshot, folder = this.folder, now = this.now()
                this.perform(reply, { () throws -> (SavedPlaylist, String?) in
                    let saved = try folder.save(tracks, as: name, now: now)
                    return (saved, this.icon(of: saved))
                }, then: { saved, icon in
                    this.update(saved, icon: icon)
                    return [.objectPath(Self.path(of: saved))]
                })
            },
            later("LoadPlaylist", [Argument("name", "s"), Argument("play", "b")], outputs: [Argument("count", "u")]) {
                this, args, reply in
                this.load(try Self.name(args[0]), reply, adding: nil, play: args[1].boolValue ?? false)
            },
            later("AddPlaylist", [Argument("name", "s"), Argument("position", "s"), Argument("play", "b")],
                  outputs: [Argument("count", "u")]) { this, args, reply in
                let name = try Self.name(args[0]), place = args[1].stringValue ?? ""
                _ = try position(place)  // refused before the file is read
                this.load(name, reply, adding: { (try? position(place)) ?? .end }, play: args[2].boolValue ?? false)
            },
            later("ListPlaylists", outputs: [Argument("playlists", "a(osuxx)")]) { this, _, reply in
                let folder = this.folder
                this.refreshFound()  // queued first on the worker: read before the answer's listing
                this.perform(reply, { (folder.folderModification, try folder.list()) }, then: { modification, playlists in
                    this.replaceListing(playlists, modification: modification)
                    let rows = this.fileBacked.sorted { $0.name.text < $1.name.text }.map { playlist in
                        DBusValue.structure([.objectPath(Self.path(of: playlist)), .string(playlist.name.text),
                                             .uint32(UInt32(clamping: playlist.entryCount)), .int64(playlist.created),
                                             .int64(playlist.modified)])
                    }
                    return [.array(element: "(osuxx)", rows)]
                })
            },
            later("RemovePlaylist", [Argument("name", "s")]) { this, args, reply in
                let name = try Self.name(args[0]), folder = this.folder
                try this.refuseIfFound(name)
                this.perform(reply, { try folder.remove(name) }, then: { _ in
                    this.forget(name)
                    return []
                })
            },
            later("RenamePlaylist", [Argument("name", "s"), Argument("new_name", "s")]) { this, args, reply in
                let name = try Self.name(args[0]), newName = try Self.name(args[1]), folder = this.folder
                try this.refuseIfFound(name)
                this.perform(reply, { try folder.rename(name, to: newName) }, then: { renamed in
                    this.update(renamed, icon: this.icons[renamed.id])
                    return []
                })
            },
        ]
    }

    /// A method answered through a `PendingReply`, holding this object weakly.
    func later(_ name: String, _ inputs: [Argument] = [], outputs: [Argument] = [],
               _ body: @escaping (SavedPlaylists, [DBusValue], PendingReply) throws -> Void) -> InterfaceDescription.Method {
        InterfaceDescription.Method(name: name, inputs: inputs, outputs: outputs) { [weak self] call, reply in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            try body(self, call.arguments, reply)
        }
    }
}
