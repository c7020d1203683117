import DBus
import Library

/// Everything quaverd serves, exported together on one connection: the object at /org/mpris/MediaPlayer2
/// with the MPRIS interfaces, org.quaver.Quaver1 (with the members `parts` add to it), its `.Library` and,
/// with saved playlists, MPRIS Playlists; with a library, GNOME Shell's search provider beside it.
/// Exported methods hold their objects weakly: these live as long as this does.
public final class ServedObjects {
    private let quaver: QuaverInterface
    private let library: LibraryInterface
    private let searchProvider: ShellSearchProvider?

    public init(service: MPRISService, on connection: Connection, version: String, playlists: SavedPlaylists?,
                library musicLibrary: MusicLibrary?, parts: [InterfacePart]) {
        quaver = QuaverInterface(mpris: service, version: version, playlists: playlists, parts: parts)
        library = LibraryInterface(mpris: service, library: musicLibrary)
        let playlistsInterface = playlists.map { [$0.interface] } ?? []
        connection.export(service.exportedObject(adding: [quaver.description, library.description] + playlistsInterface))
        searchProvider = musicLibrary.map { ShellSearchProvider(mpris: service, library: $0) }
        searchProvider.map { connection.export($0.exportedObject) }
    }
}
