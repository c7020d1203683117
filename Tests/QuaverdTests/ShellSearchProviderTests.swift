import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// GNOME Shell 43's own overview search lists the real quaverd's library results (our search provider, found
/// through the installed .ini and desktop entry), and activating a result makes quaverd play it.
final class ShellSearchProviderTests: XCTestCase {
    private static let desktopId = "org.quaver.Quaver.desktop"

    private var repository: URL { InstallTests.repository }

    func testTheOverviewListsTheAlbumFirstAndActivatingItPlaysIt() throws {
        guard GnomeShell.isInstalled else { throw XCTSkip("gnome-shell is not installed (scripts/deps test installs it)") }
        let shell = try GnomeShell(dataFiles: [
            "gnome-shell/search-providers/org.quaver.Quaver.search-provider.ini":
                try String(contentsOf: repository.appendingPathComponent("dbus/org.quaver.Quaver.search-provider.ini"), encoding: .utf8),
            // As `make install` writes it: GLib ignores an entry whose Exec program it cannot find.
            "applications/\(Self.desktopId)":
                try String(contentsOf: repository.appendingPathComponent("dbus/\(Self.desktopId)"), encoding: .utf8)
                    .replacingOccurrences(of: "\nExec=quaver ", with: "\nExec=\(productsDirectory.path)/quaver "),
        ])
        defer { shell.stop() }
        let home = try TemporaryDirectory(prefix: "search-provider-home")
        let album = home.url.appendingPathComponent("Music/Miles Davis/Kind of Blue")
        try TaggedTree.write([
            TaggedTree.File("01.flac", ["TITLE": "So What", "ARTIST": "Miles Davis", "ALBUM": "Kind of Blue", "TRACKNUMBER": "1"]),
            TaggedTree.File("02.mp3", ["TITLE": "Freddie Freeloader", "ARTIST": "Miles Davis", "ALBUM": "Kind of Blue",
                                       "TRACKNUMBER": "2"]),
        ], under: album)
        try Data(Media.fixtures().coverBytes).write(to: album.appendingPathComponent("cover.png"))
        let daemon = try RunningDaemon(bus: shell.sessionBus, home: home)
        XCTAssertTrue(eventually(timeout: 20) {
            (try? daemon.get("TrackCount", ControlAPI.libraryInterface).int64Value) == 2
        })

        try shell.eval("Main.overview.show(); Main.overview.searchEntry.set_text('kind of blue'); true")
        var shown = ""
        XCTAssertTrue(eventually(timeout: 20) {
            shown = (try? shell.eval(Self.resultsScript)) ?? ""
            return shown.contains("Kind of Blue")
        }, "the overview shows no Quaver result: \(shown) \((try? shell.eval(Self.diagnosis)) ?? "")")
        let albumID = "album\u{1F}Miles Davis\u{1F}Kind of Blue"
        let results = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [[String: String]])
        XCTAssertEqual(results.first?["id"], albumID, shown)
        XCTAssertEqual(results.first?["name"], "Kind of Blue")

        try shell.eval("""
            (() => { const p = \(Self.providerExpression);
                     p.display._resultDisplays[\(String(data: try JSONEncoder().encode(albumID), encoding: .utf8)!)].activate(); })()
            """)
        daemon.waitUntil("playing", { daemon.status == "Playing" })
        XCTAssertTrue(eventually(timeout: 10) { daemon.metadata["xesam:title"]?.stringValue == "So What" }, "\(daemon.metadata)")
        XCTAssertEqual(daemon.tracks.count, 2)
    }

    private static let providerExpression = """
        Main.overview._overview._controls._searchController._searchResults._providers
            .find(p => p.appInfo && p.appInfo.get_id() === '\(desktopId)')
        """

    private static let diagnosis = """
        (() => { const r = Main.overview._overview._controls._searchController._searchResults;
                 let a = null; try { a = imports.gi.Gio.DesktopAppInfo.new('\(desktopId)'); } catch (e) { a = String(e); }
                 return {providers: r._providers.map(p => p.appInfo ? p.appInfo.get_id() : p.id),
                         app: a === null ? null : (typeof a === 'string' ? a : a.should_show()),
                         user: imports.gi.GLib.get_user_data_dir(), terms: r._terms}; })()
        """

    /// Quaver's results as the overview shows them, in order: id and name of each.
    private static let resultsScript = """
        (() => { const p = \(providerExpression);
                 if (!p || !p.display) return [];
                 return p.display._content.get_children()
                     .map(a => ({id: a.metaInfo.id, name: a.metaInfo.name})); })()
        """
}
