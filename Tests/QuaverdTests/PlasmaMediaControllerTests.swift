import ControlAPI
import DBus
import Foundation
import TestSupport
import XCTest

/// What KDE Plasma 5.27's media controller applet shows of the real quaverd, and what its buttons and KDE's
/// global media shortcuts make quaverd do. The applet's data is read from the data engine it binds to
/// (`mpris2`, through a qmlscene probe); what it draws is kept as a screenshot.
final class PlasmaMediaControllerTests: XCTestCase {
    func testAppletShowsQuaverdAndItsButtonsAndShortcutsDriveIt() throws {
        guard PlasmaDesktop.isInstalled else {
            throw XCTSkip("KDE Plasma is not installed (scripts/deps test installs kwin-wayland, plasma-workspace, …)")
        }
        let plasma = try PlasmaDesktop()
        defer { plasma.stop() }
        try plasma.addMediaController()
        let folder = try TemporaryDirectory(prefix: "plasma-applet")
        let tracks = try Media.taggedTracks(["Plasma One", "Plasma Two", "Plasma Three"], artist: "The Applet Testers",
                                            album: "KDE", in: folder)
        let calls = try ChildProcess("dbus-monitor", ["--address", plasma.sessionBus.address,
                                                      "type='method_call',interface='\(ControlAPI.playerInterface)'"],
                                     logDirectory: folder.url, name: "dbus-monitor")
        let started = Date()
        let daemon = try RunningDaemon(tracks.map(\.path), bus: plasma.sessionBus)
        let shown = try waitForApplet(plasma, "the first track with its cover") { $0.title == "Plasma One" && $0.art != nil }
        print("quaverd start to Plasma's applet showing title, artist and cover: \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        XCTAssertEqual(shown.artist, ["The Applet Testers"])
        XCTAssertEqual(shown.art, daemon.metadata["mpris:artUrl"]?.stringValue)
        try saveScreenshotWithTheCover(plasma)

        let first = try XCTUnwrap(daemon.currentTrack)
        try plasma.click(.playPause)
        daemon.waitUntil("Playing from the applet's button", { daemon.status == "Playing" })
        try plasma.click(.playPause)
        daemon.waitUntil("Paused from the applet's button", { daemon.status == "Paused" })
        try plasma.click(.next)
        daemon.waitUntil("the next track from the applet", { daemon.currentTrack != first })
        _ = try waitForApplet(plasma, "the applet following the track change") { $0.title == "Plasma Two" }
        try plasma.click(.previous)
        daemon.waitUntil("the first track again from the applet", { daemon.currentTrack == first })

        try plasma.invokeShortcut("playpausemedia")
        daemon.waitUntil("Playing from KDE's play/pause shortcut", { daemon.status == "Playing" })
        try plasma.invokeShortcut("nextmedia")
        daemon.waitUntil("the next track from KDE's shortcut", { daemon.currentTrack != first })
        _ = try waitForApplet(plasma, "the applet following the shortcut's track change") { $0.title == "Plasma Two" }
        try plasma.invokeShortcut("playpausemedia")
        daemon.waitUntil("Paused from KDE's play/pause shortcut", { daemon.status == "Paused" })

        let members = calls.standardOutput.split(separator: "\n").compactMap { line in
            line.range(of: "member=").map { String(line[$0.upperBound...].prefix { $0 != " " }) }
        }
        XCTAssertTrue(members.contains("Play") && members.contains("Pause"), "\(members)")
        XCTAssertFalse(members.contains("PlayPause"), "Plasma sends Play and Pause: \(members)")
    }

    private func waitForApplet(_ plasma: PlasmaDesktop, _ what: String, timeout: Double = 20,
                               _ condition: (PlasmaDesktop.PlayerState) -> Bool) throws -> PlasmaDesktop.PlayerState {
        var shown: PlasmaDesktop.PlayerState?
        if eventually(timeout: timeout, { shown = try? plasma.player("quaver"); return shown.map(condition) ?? false }), let shown {
            return shown
        }
        throw TestHarnessError("timed out waiting for \(what); the applet's engine has \(String(describing: shown))")
    }

    /// The applet as the user sees it, kept as a test artifact, once its cover is drawn (it loads the file
    /// after the metadata arrives): the fixture's cover is plain orange (#FF8000).
    private func saveScreenshotWithTheCover(_ plasma: PlasmaDesktop) throws {
        let folder = productsDirectory.appendingPathComponent("test-artifacts", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("plasma-media-controller.png")
        var orange = 0.0
        XCTAssertTrue(eventually(timeout: 20) {
            orange = (try? plasma.screenshot(to: file, share: 0xFF8000)) ?? 0
            return orange > 0.9
        }, "the applet drew no cover (\(Int(orange * 100)) % orange where it goes)")
        print("Plasma media controller screenshot: \(file.path) (\(Int(orange * 100)) % of the cover's middle orange)")
    }
}

/// KDE Plasma's lock screen (kscreenlocker) has media controls of its own: locked, it shows quaverd's track
/// and cover, and its buttons drive quaverd while the screen stays locked.
final class PlasmaLockScreenTests: XCTestCase {
    func testTheLockScreenShowsQuaverdAndItsButtonsWork() throws {
        guard PlasmaDesktop.isInstalled else {
            throw XCTSkip("KDE Plasma is not installed (scripts/deps test installs kwin-wayland, plasma-workspace, …)")
        }
        let plasma = try PlasmaDesktop()
        defer { plasma.stop() }
        let folder = try TemporaryDirectory(prefix: "plasma-lock")
        let tracks = try Media.taggedTracks(["Locked One", "Locked Two"], artist: "The Lock Testers", album: "KDE", in: folder)
        let daemon = try RunningDaemon(tracks.map(\.path), bus: plasma.sessionBus)
        XCTAssertTrue(eventually(timeout: 20) { (try? plasma.player("quaver"))?.title == "Locked One" }, "Plasma has seen quaverd")
        try plasma.lock()

        let file = productsDirectory.appendingPathComponent("test-artifacts/plasma-lock-screen.png")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var orange = 0.0
        XCTAssertTrue(eventually(timeout: 20) {
            try? plasma.wakeLockScreen()
            orange = (try? plasma.screenshot(to: file, share: 0xFF8000, in: PlasmaDesktop.lockScreenCoverMiddle)) ?? 0
            return orange > 0.9
        }, "the lock screen drew no cover of quaverd's track (\(Int(orange * 100)) % orange where it goes)")
        print("Plasma lock screen screenshot: \(file.path)")

        let first = try XCTUnwrap(daemon.currentTrack)
        var clicks: [Int] = []
        clicks.append(try click(.playPause, on: plasma) { daemon.status == "Playing" })
        clicks.append(try click(.next, on: plasma) { daemon.currentTrack != first })
        clicks.append(try click(.playPause, on: plasma) { daemon.status == "Paused" })
        print("lock screen clicks needed for play, next, pause: \(clicks)")
        XCTAssertFalse(clicks.contains(0), "a button never worked (play, next, pause: \(clicks)); quaverd:\n\(daemon.logTail)")
        XCTAssertTrue(try plasma.isLocked(), "still locked")
    }

    /// Clicks `button` on the woken lock screen until `effect` holds, three clicks at most, each given 10 s: under
    /// load the lock screen once dropped the first click after it woke (play had no effect, next then did). A
    /// click that works is not repeated, so a toggle is never undone. The clicks it took, 0 if none worked.
    private func click(_ button: PlasmaDesktop.LockScreenButton, on plasma: PlasmaDesktop,
                       until effect: () -> Bool) throws -> Int {
        for attempt in 1...3 {
            try plasma.wakeLockScreen()
            try plasma.clickOnLockScreen(button)
            if eventually(timeout: 10, effect) { return attempt }
        }
        return 0
    }
}
