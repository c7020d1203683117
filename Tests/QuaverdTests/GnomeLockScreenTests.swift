import ControlAPI
import Foundation
import TestSupport
import XCTest

/// GNOME Shell 43 locked: its lock screen shows no player (its unlock dialog lists notifications only), so
/// what must keep working is the media keys. The shell is locked as a user's shortcut locks it, with a GDM
/// stand-in on the private system bus (without one the shell has no screen shield) and a virtual keyboard;
/// then keys from that keyboard go through gsd-media-keys to quaverd.
final class GnomeLockScreenTests: XCTestCase {
    func testMediaKeysDriveQuaverdWhileTheScreenIsLocked() throws {
        guard GnomeShell.isInstalled else { throw XCTSkip("gnome-shell is not installed (scripts/deps test installs it)") }
        guard GnomeShell.canLockHere else {
            throw XCTSkip("/run/systemd/seats is missing: GNOME Shell 43 makes no screen shield without it")
        }
        let shell = try GnomeShell(canLock: true)
        defer { shell.stop() }
        try shell.startMediaKeys()
        let folder = try TemporaryDirectory(prefix: "gnome-lock")
        let tracks = try Media.taggedTracks(["Locked One", "Locked Two"], artist: "The Lock Testers", album: "Lock", in: folder)
        let daemon = try RunningDaemon(tracks.map(\.path), bus: shell.sessionBus)
        let card = GnomeMediaCard(busName: ControlAPI.busName, in: shell)
        XCTAssertTrue(eventually(timeout: 15) { (try? card.read())??.title == "Locked One" },
                      "the desktop has seen quaverd appear")
        try shell.lock()
        XCTAssertTrue(try shell.isLocked())

        let first = try XCTUnwrap(daemon.currentTrack)
        try shell.press("KEY_AudioPlay")
        daemon.waitUntil("Playing from the play key while locked", { daemon.status == "Playing" })
        try shell.press("KEY_AudioNext")
        daemon.waitUntil("the next track from the next key while locked", { daemon.currentTrack != first })
        try shell.press("KEY_AudioPlay")
        daemon.waitUntil("Paused from the play key while locked", { daemon.status == "Paused" })
        XCTAssertTrue(try shell.isLocked(), "still locked: the keys went through the lock screen")
    }
}
