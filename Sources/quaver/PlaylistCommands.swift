import ArgumentParser
import ControlAPI
import DBus
import FoundationEssentials
import QuaverClient
import TerminalText

// The saved playlists (docs/playlists.md): M3U8 files the daemon keeps in $XDG_DATA_HOME/quaver/playlists.

struct Save: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Save the queue as a playlist (over a playlist of the same name, which keeps its id).")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The playlist's name.") var name: String

    func run() throws {
        try options.connect().savePlaylist(name)
    }
}

struct Load: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Replace the queue with a saved playlist.")

    @OptionGroup var options: ClientOptions
    @Flag(help: "Start playing its first track.") var play = false
    @Argument(help: "The playlist's name.") var name: String

    func run() throws {
        let count = try options.connect().loadPlaylist(name, play: play)
        Terminal.line("queued \(count) track\(count == 1 ? "" : "s")")
    }
}

struct PlaylistList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlists", abstract: "List the saved playlists: name, number of tracks, last change.")

    @OptionGroup var options: ClientOptions
    @Flag(help: "Print JSON: [{\"id\", \"name\", \"tracks\", \"created\", \"modified\"}] (docs/scripting.md).")
    var json = false

    func run() throws {
        let rows = try options.connect().savedPlaylists().compactMap(SavedPlaylistRow.init)
        if json { return Terminal.line(JSONValue.array(rows.map(\.json)).text) }
        if rows.isEmpty { return Terminal.line("no saved playlists") }
        for row in rows { Terminal.line("\(row.name)  \(row.tracks) track\(row.tracks == 1 ? "" : "s")  \(row.modifiedText)") }
    }
}

struct PlaylistEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlist", abstract: "Remove or rename a saved playlist.", subcommands: [RemovePlaylist.self, RenamePlaylist.self])

    struct RemovePlaylist: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a saved playlist.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The playlist's name.") var name: String

        func run() throws {
            try options.connect().removePlaylist(name)
        }
    }

    struct RenamePlaylist: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename a saved playlist (never over another one); its id stays.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "Its name now.") var name: String
        @Argument(help: "Its new name.") var newName: String

        func run() throws {
            try options.connect().renamePlaylist(name, to: newName)
        }
    }
}

/// One row of ListPlaylists (`a(osuxx)`).
struct SavedPlaylistRow {
    let id: String, name: String, tracks: Int64, created: Int64, modified: Int64

    init?(_ value: DBusValue) {
        guard case .structure(let fields) = value, fields.count == 5, let id = fields[0].objectPathValue,
              let name = fields[1].stringValue, let tracks = fields[2].int64Value, let created = fields[3].int64Value,
              let modified = fields[4].int64Value else { return nil }
        (self.id, self.name, self.tracks, self.created, self.modified) = (id.rawValue, name, tracks, created, modified)
    }

    var json: JSONValue {
        .object([("id", .string(id)), ("name", .string(name)), ("tracks", .integer(tracks)),
                 ("created", .integer(created)), ("modified", .integer(modified))])
    }

    var modifiedText: String { UTCText.minutes(modified) }
}
