import ControlAPI
import DBus
import EventLoop
import Foundation
import TestSupport
import XCTest

/// What GNOME Shell 43's media card (the date menu's media section) shows of the real quaverd, and what its
/// buttons and the desktop's media keys (gsd-media-keys) make quaverd do. One shell serves the whole class.
final class GnomeShellTests: XCTestCase {
    private static var sharedShell: GnomeShell?
    private static let artist = "The Shell Testers"
    private var shell: GnomeShell!
    private var folder: TemporaryDirectory!
    private var tracks: [URL] = []

    override func setUpWithError() throws {
        guard GnomeShell.isInstalled else {
            throw XCTSkip("gnome-shell is not installed (scripts/deps test installs it)")
        }
        if Self.sharedShell == nil { Self.sharedShell = try GnomeShell() }
        shell = Self.sharedShell
        folder = try TemporaryDirectory(prefix: "gnome-card")
        tracks = try ["One", "Two", "Three"].enumerated().map { index, name in
            let url = folder.url.appendingPathComponent("track-\(index + 1).flac")
            try Media.fixtures().taggedFLAC(at: url, title: "Card \(name)", artist: Self.artist, album: "Shell Album",
                                            seconds: 30)
            return url
        }
    }

    override func tearDown() {
        shell = nil
        folder = nil
    }

    override class func tearDown() {
        sharedShell?.stop()
        sharedShell = nil
    }

    func testCardShowsTagsAndCoverAndItsButtonsDriveQuaverd() throws {
        try shell.eval(MediaCard.openMenu)  // the shell loads the cover image once the card is on screen
        let started = Date()
        var daemon: RunningDaemon? = try RunningDaemon(tracks.map(\.path), bus: shell.sessionBus)
        let card = try waitForCard("the first track with its cover loaded") { $0.title == "Card One" && $0.coverLoaded }
        print("quaverd start to a complete media card: \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        XCTAssertEqual(card.artist, Self.artist)
        let art = try XCTUnwrap(daemon?.metadata["mpris:artUrl"]?.stringValue)
        XCTAssertEqual(card.cover, art, "the shell shows the file quaverd advertises")
        let artFile = try XCTUnwrap(URL(string: art))
        let artDirectory = try XCTUnwrap(daemon?.artDirectory.path)
        XCTAssertTrue(artFile.isFileURL && artFile.path.hasPrefix(artDirectory), "\(art) is in quaverd's cache")
        XCTAssertEqual([UInt8](try Data(contentsOf: artFile)), try Media.fixtures().coverBytes, "the embedded cover")

        try waitUntilCardTakesClicks()
        try saveScreenshotOfCard()
        try shell.eval(MediaCard.recordChanges)

        try shell.click(MediaCard.button("_playPauseButton"))
        try waitForStatus("Playing", daemon)
        _ = try waitForCard("the pause icon") { $0.playing }
        try shell.click(MediaCard.button("_playPauseButton"))
        try waitForStatus("Paused", daemon)

        let first = try XCTUnwrap(daemon?.currentTrack)
        try shell.click(MediaCard.button("_nextButton"))
        daemon?.waitUntil("the next track") { daemon?.currentTrack != first }
        _ = try waitForCard("the second title") { $0.title == "Card Two" && $0.coverLoaded }
        try shell.click(MediaCard.button("_prevButton"))
        daemon?.waitUntil("the first track again") { daemon?.currentTrack == first }
        _ = try waitForCard("the first title") { $0.title == "Card One" }
        XCTAssertEqual(daemon?.status, "Paused", "Next and Previous keep Paused")

        let seen = try JSONDecoder().decode([[String]].self, from: Data(try shell.eval(MediaCard.recordedChanges).utf8))
        XCTAssertFalse(seen.isEmpty)
        for state in seen {  // never the file name, "Unknown artist" or no cover while a track changes
            XCTAssertTrue(state.count == 3 && state[0].hasPrefix("Card ") && state[1] == Self.artist && !state[2].isEmpty,
                          "the card showed \(state)")
        }

        daemon = nil  // SIGTERM: quaverd gives its name back
        try waitUntilCardIsGone()
        XCTAssertEqual(try shell.eval(MediaCard.isListed), "false", "the shell forgot the player")
    }

    /// GNOME lists a player only while CanPlay is true: stopped with a queue, quaverd keeps it true.
    func testStoppedQuaverdWithAQueueStaysListed() throws {
        let daemon = try RunningDaemon(tracks.map(\.path), bus: shell.sessionBus)
        _ = try waitForCard("the card") { $0.title == "Card One" }
        try daemon.call("Play")
        try waitForStatus("Playing", daemon)
        try daemon.call("Stop")
        try waitForStatus("Stopped", daemon)
        usleep(1_000_000)  // the shell has heard the Stop by now: PropertiesChanged takes about a millisecond
        let card = try XCTUnwrap(try readCard(), "a stopped quaverd with a queue is still on the card")
        XCTAssertEqual(card.title, "Card One")
        XCTAssertFalse(card.playing)
        XCTAssertEqual(try shell.eval(MediaCard.isListed), "true")
    }

    /// gsd-media-keys beside the shell: media keys pressed on a (virtual) keyboard reach quaverd through
    /// the shell's key grab and gsd-media-keys' MPRIS calls, the path desktop users' keyboards take.
    func testMediaKeysDriveQuaverd() throws {
        try shell.startMediaKeys()
        let daemon = try RunningDaemon(tracks.map(\.path), bus: shell.sessionBus)
        _ = try waitForCard("the card") { $0.title == "Card One" }  // the desktop has seen quaverd appear
        let first = try XCTUnwrap(daemon.currentTrack)
        try shell.press("KEY_AudioPlay")
        try waitForStatus("Playing", daemon)
        try shell.press("KEY_AudioNext")
        daemon.waitUntil("the next track") { daemon.currentTrack != first }
        try shell.press("KEY_AudioPrev")
        daemon.waitUntil("the first track again") { daemon.currentTrack == first }
        try shell.press("KEY_AudioPlay")
        try waitForStatus("Paused", daemon)
    }

    // MARK: Helpers

    private func readCard() throws -> MediaCard? {
        try JSONDecoder().decode(MediaCard?.self, from: Data(try shell.eval(MediaCard.read).utf8))
    }

    /// Waits until the card is there and satisfies `condition`.
    @discardableResult
    private func waitForCard(_ what: String, timeout: Double = 15, _ condition: (MediaCard) -> Bool) throws -> MediaCard {
        var card: MediaCard?
        if eventually(timeout: timeout, { card = try? readCard(); return card.map(condition) ?? false }), let card {
            return card
        }
        throw TestHarnessError("timed out waiting for \(what); the card shows \(card.map { "\($0)" } ?? "nothing")")
    }

    private func waitUntilCardIsGone() throws {
        guard eventually(timeout: 15, { (try? shell.eval(MediaCard.read)) == "null" }) else {
            throw TestHarnessError("the card is still there: \(String(describing: try? readCard()))")
        }
    }

    private func waitForStatus(_ status: String, _ daemon: RunningDaemon?, file: StaticString = #filePath, line: UInt = #line) throws {
        let daemon = try XCTUnwrap(daemon)
        daemon.waitUntil("PlaybackStatus \(status)", { daemon.status == status }, file: file, line: line)
    }

    /// Waits until the card's buttons are on screen in the open date menu, and take clicks.
    private func waitUntilCardTakesClicks() throws {
        guard eventually(timeout: 10, { (try? shell.eval(MediaCard.onScreen)) == "true" }) else {
            throw TestHarnessError("the date menu did not show the media card")
        }
        usleep(500_000)  // the menu takes input once its opening has settled
    }

    /// The card as the user sees it, kept as a test artifact under the build folder.
    private func saveScreenshotOfCard() throws {
        let folder = productsDirectory.appendingPathComponent("test-artifacts", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("gnome-shell-media-card.png")
        try? FileManager.default.removeItem(at: file)
        try shell.screenshot(of: MediaCard.card, to: file)
        XCTAssertGreaterThan((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0, 100)
        print("GNOME Shell media card screenshot: \(file.path)")
    }
}

/// GNOME Shell 43's media card for quaverd, read through Eval. The card lives in private fields of the date
/// menu (`_messageList._mediaSection`, whose `_players` are keyed by bus name and whose messages hold a
/// `_player`), so these expressions name that version's internals.
private struct MediaCard: Decodable, CustomStringConvertible {
    let title: String
    let artist: String
    /// The URI of the file the card's icon was set from; nil when it shows the generic icon.
    let cover: String?
    /// Whether the shell has loaded that image (its texture holds an image, not nothing).
    let coverLoaded: Bool
    /// The play/pause button shows "pause": the shell believes the player plays.
    let playing: Bool

    static let section = "Main.panel.statusArea.dateMenu._messageList._mediaSection"
    static let card = "\(section)._messages.find(message => message._player._busName === '\(ControlAPI.busName)')"
    static let isListed = "\(section)._players.has('\(ControlAPI.busName)')"

    static let openMenu = "Main.panel.statusArea.dateMenu.menu.open()"

    static func button(_ field: String) -> String { "\(card).\(field)" }

    static let read = """
        (() => {
            const card = \(card);
            if (!card) return null;
            const gicon = card._icon.gicon;
            const texture = card._icon.get_children()[0];
            const content = texture ? texture.get_content() : null;
            return {
                title: card.titleLabel.text, artist: card.bodyLabel.text,
                cover: gicon && gicon.file ? gicon.file.get_uri() : null,
                coverLoaded: !!gicon && !!gicon.file && content instanceof imports.gi.St.ImageContent,
                playing: card._playPauseButton.child.icon_name === 'media-playback-pause-symbolic',
            };
        })()
        """

    static let onScreen = """
        (() => { const card = \(card); return !!card && Main.panel.statusArea.dateMenu.menu.isOpen && card.mapped
                 && card._playPauseButton.mapped; })()
        """

    /// Keeps every state the shell's player object takes from now on: title, artists, cover URL.
    static let recordChanges = """
        (() => {
            global._quaverTestSeen = [];
            \(card)._player.connect('changed', player => global._quaverTestSeen.push(
                [player.trackTitle, player.trackArtists.join(', '), player.trackCoverUrl]));
        })()
        """
    static let recordedChanges = "global._quaverTestSeen"

    var description: String { "\(title) / \(artist) / \(cover ?? "no cover") loaded \(coverLoaded) playing \(playing)" }
}
