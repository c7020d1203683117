import ControlAPI
import Foundation
import TestSupport
import XCTest

/// What GNOME Shell 43's media card (the date menu's media section) shows of the real quaverd, and what its
/// buttons and the desktop's media keys (gsd-media-keys) make quaverd do. One shell serves the whole class.
final class GnomeShellTests: XCTestCase {
    private static var sharedShell: Result<GnomeShell, Error>?
    private static let artist = "The Shell Testers"
    private var shell: GnomeShell!
    private var card: GnomeMediaCard!
    private var folder: TemporaryDirectory!
    private var tracks: [URL] = []

    override func setUpWithError() throws {
        guard GnomeShell.isInstalled else {
            throw XCTSkip("gnome-shell is not installed (scripts/deps test installs it)")
        }
        // Started once for the class; a shell that failed to start fails every test at once.
        if Self.sharedShell == nil { Self.sharedShell = Result { try GnomeShell() } }
        shell = try Self.sharedShell?.get()
        card = GnomeMediaCard(busName: ControlAPI.busName, in: shell)
        try waitUntilCardIsGone()  // the previous test's quaverd is gone from the desktop too
        folder = try TemporaryDirectory(prefix: "gnome-card")
        tracks = try ["One", "Two", "Three"].enumerated().map { index, name in
            let url = folder.url.appendingPathComponent("track-\(index + 1).flac")
            try Media.fixtures().taggedFLAC(at: url, title: "Card \(name)", artist: Self.artist, album: "Shell Album",
                                            seconds: 30)
            return url
        }
    }

    override func tearDown() {
        card = nil
        shell = nil
        folder = nil
    }

    override class func tearDown() {
        (try? sharedShell?.get())?.stop()
        sharedShell = nil
    }

    func testCardShowsTagsAndCoverAndItsButtonsDriveQuaverd() throws {
        try card.openMenu()  // the shell loads the cover image once the card is on screen
        let started = Date()
        var daemon: RunningDaemon? = try RunningDaemon(tracks.map(\.path), bus: shell.sessionBus)
        let shown = try waitForCard("the first track with its cover loaded") { $0.title == "Card One" && $0.coverLoaded }
        print("quaverd start to a complete media card: \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        XCTAssertEqual(shown.artist, Self.artist)
        let art = try XCTUnwrap(daemon?.metadata["mpris:artUrl"]?.stringValue)
        XCTAssertEqual(shown.cover, art, "the shell shows the file quaverd advertises")
        let artFile = try XCTUnwrap(URL(string: art))
        let artDirectory = try XCTUnwrap(daemon?.artDirectory.path)
        XCTAssertTrue(artFile.isFileURL && artFile.path.hasPrefix(artDirectory), "\(art) is in quaverd's cache")
        XCTAssertEqual([UInt8](try Data(contentsOf: artFile)), try Media.fixtures().coverBytes, "the embedded cover")

        try waitUntilCardIsOnScreen()
        try saveScreenshotOfCard()
        try card.recordStates()

        try click(.playPause) { daemon?.status == "Playing" }
        _ = try waitForCard("the pause icon") { $0.playing }
        try card.click(.playPause)
        try waitForStatus("Paused", daemon)

        let first = try XCTUnwrap(daemon?.currentTrack)
        try card.click(.next)
        daemon?.waitUntil("the next track") { daemon?.currentTrack != first }
        _ = try waitForCard("the second title") { $0.title == "Card Two" && $0.coverLoaded }
        try card.click(.previous)
        daemon?.waitUntil("the first track again") { daemon?.currentTrack == first }
        _ = try waitForCard("the first title") { $0.title == "Card One" }
        XCTAssertEqual(daemon?.status, "Paused", "Next and Previous keep Paused")

        let seen = try card.recordedStates()
        XCTAssertFalse(seen.isEmpty)
        for state in seen {  // never the file name, "Unknown artist" or no cover while a track changes
            XCTAssertTrue(state.count == 3 && state[0].hasPrefix("Card ") && state[1] == Self.artist && !state[2].isEmpty,
                          "the card showed \(state)")
        }

        daemon = nil  // SIGTERM: quaverd gives its name back
        try waitUntilCardIsGone()
        XCTAssertFalse(try card.isListed(), "the shell forgot the player")
    }

    /// GNOME lists a player only while CanPlay is true: stopped with a queue, quaverd keeps it true.
    func testStoppedQuaverdWithAQueueStaysListed() throws {
        let daemon = try RunningDaemon(tracks.map(\.path), bus: shell.sessionBus)
        _ = try waitForCard("the card") { $0.title == "Card One" }
        try daemon.call("Play")
        try waitForStatus("Playing", daemon)
        try daemon.call("Stop")
        try waitForStatus("Stopped", daemon)
        let shown = try waitForCard("the card showing the Stop, still listed") { !$0.playing }
        XCTAssertEqual(shown.title, "Card One")
        XCTAssertFalse(shown.playing)
        XCTAssertTrue(try card.isListed())
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

    /// Waits until the card is there and satisfies `condition`.
    @discardableResult
    private func waitForCard(_ what: String, timeout: Double = 15,
                             _ condition: (GnomeMediaCard.State) -> Bool) throws -> GnomeMediaCard.State {
        var shown: GnomeMediaCard.State?
        if eventually(timeout: timeout, { shown = try? card.read(); return shown.map(condition) ?? false }), let shown {
            return shown
        }
        throw TestHarnessError("timed out waiting for \(what); the card shows \(shown.map { "\($0)" } ?? "nothing")")
    }

    private func waitUntilCardIsGone() throws {
        guard eventually(timeout: 15, { (try? card.read()) == .some(nil) }) else {
            throw TestHarnessError("the card is still there: \(String(describing: try? card.read()))")
        }
    }

    private func waitForStatus(_ status: String, _ daemon: RunningDaemon?, file: StaticString = #filePath, line: UInt = #line) throws {
        let daemon = try XCTUnwrap(daemon)
        daemon.waitUntil("PlaybackStatus \(status)", { daemon.status == status }, file: file, line: line)
    }

    /// Waits until the card's buttons are on screen in the open date menu.
    private func waitUntilCardIsOnScreen() throws {
        guard eventually(timeout: 10, { (try? card.isOnScreen()) == true }) else {
            throw TestHarnessError("the date menu did not show the media card")
        }
    }

    /// Clicks `button` until `effect` holds, three times at most: the menu takes input only once its opening has
    /// settled (about half a second), and a click before that is lost. A click that works is not repeated (each
    /// has 10 s to show), so a toggle is never undone.
    private func click(_ button: GnomeMediaCard.Button, until effect: () -> Bool) throws {
        for _ in 1...3 {
            try card.click(button)
            if eventually(timeout: 10, effect) { return }
        }
        throw TestHarnessError("three clicks on \(button) had no effect")
    }

    /// The card as the user sees it, kept as a test artifact under the build folder.
    private func saveScreenshotOfCard() throws {
        let folder = productsDirectory.appendingPathComponent("test-artifacts", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("gnome-shell-media-card.png")
        try? FileManager.default.removeItem(at: file)
        try card.screenshot(to: file)
        XCTAssertGreaterThan((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0, 100)
        print("GNOME Shell media card screenshot: \(file.path)")
    }
}
