import DBus
import Foundation
import Glibc

/// KDE Plasma 5.27 running headless on a private session bus, for tests that check what its media
/// controller shows of a player and does with it:
///
///   Xvfb (for screenshots and clicks) ◀── kwin_wayland --x11-display (a window on it, Wayland inside)
///                                              ▲ plasmashell (media controller applet), kactivitymanagerd
///   test ──evaluateScript──▶ plasmashell       │ kglobalaccel (inside kwin): the media shortcuts
///   test ──qmlscene probe──▶ the mpris2 data engine the applet reads
///
/// `/usr/bin/kwin_wayland` carries the file capability `cap_sys_resource`, which a container may refuse
/// to execute: a copy without it runs, under the same name (its Qt platform plugin is found by the name).
/// Nothing on a private bus is D-Bus activated, so kactivitymanagerd is started by hand (plasmashell loads
/// nothing without it). Everything is stopped by PID; kwin's own children (kscreenlocker_greet) end with it.
public final class PlasmaDesktop {
    public let sessionBus: PrivateBus
    public let home: TemporaryDirectory
    /// The X display kwin's window is on, e.g. `:3` (known once Xvfb has started).
    public private(set) var display = ""
    private var processes: [ChildProcess] = []
    private var probe: ChildProcess?
    private let client: Connection

    static let qmlscene = "/usr/lib/qt5/bin/qmlscene"
    static let waylandSocket = "quaver-kde"

    /// Whether Plasma and its helpers are installed (`scripts/deps test` installs them).
    public static var isInstalled: Bool {
        ["plasmashell", "kwin_wayland", "Xvfb", "xwd"].allSatisfy { (try? ChildProcess.resolve($0)) != nil }
            && FileManager.default.isExecutableFile(atPath: qmlscene)
    }

    /// Starts Xvfb, kwin, kactivitymanagerd and plasmashell, and waits until the shell answers scripts.
    public init(timeout: Double = 60) throws {
        sessionBus = try PrivateBus()
        home = try TemporaryDirectory(prefix: "plasma")
        try Self.prepare(home.url)
        client = try Connection(address: sessionBus.address)
        let xvfb = try start("Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1280x800x24"])
        guard eventually(timeout: 20, { xvfb.standardOutput.contains("\n") || !xvfb.isRunning }), xvfb.isRunning else {
            throw TestHarnessError("Xvfb did not start: \(xvfb.standardError)")
        }
        display = ":" + xvfb.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            try startPlasma(timeout: timeout)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    private func startPlasma(timeout: Double) throws {
        let kwin = home.url.appendingPathComponent("bin/kwin_wayland")
        try FileManager.default.copyItem(atPath: try ChildProcess.resolve("kwin_wayland"), toPath: kwin.path)
        // The screen locker stays on (no `--no-lockscreen`), for `lock`; kscreenlockerrc turns its idle lock off.
        let compositor = try start(kwin.path, ["--x11-display", display, "--width", "1280", "--height", "800",
                                               "-s", Self.waylandSocket])
        let socket = home.url.appendingPathComponent("runtime/\(Self.waylandSocket)").path
        guard eventually(timeout: timeout, { FileManager.default.fileExists(atPath: socket) || !compositor.isRunning }),
              compositor.isRunning else { throw TestHarnessError("kwin_wayland did not start: \(compositor.standardError.suffix(2000))") }
        _ = try start("/usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd", [], wayland: true)
        let shell = try start("plasmashell", ["--no-respawn"], wayland: true)
        guard eventually(timeout: timeout, { !shell.isRunning || (try? self.evaluateScript("print(desktops().length)")) == "1" }),
              shell.isRunning else { throw TestHarnessError("plasmashell did not start: \(shell.standardError.suffix(2000))") }
    }

    /// Stops everything it started, newest first, by PID; stopping again does nothing.
    public func stop() {
        probe?.stop()
        for process in processes.reversed() { process.stop() }
        processes = []
        client.close()
        sessionBus.stop()
    }

    // MARK: Driving the desktop

    /// Runs a Plasma desktop script (`org.kde.PlasmaShell.evaluateScript`); returns what it printed.
    @discardableResult
    public func evaluateScript(_ script: String) throws -> String {
        let reply = try client.call(destination: "org.kde.plasmashell", path: "/PlasmaShell", interface: "org.kde.PlasmaShell",
                                    method: "evaluateScript", arguments: [.string(script)], timeout: 10)
        return (reply.first?.stringValue ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Where `addMediaController` puts the applet, and where its buttons are inside it (Breeze, this size).
    public static let mediaController = (x: 100, y: 100, width: 500, height: 400)
    public enum Button { case previous, playPause, next }

    /// Puts Plasma's media controller (`org.kde.plasma.mediacontroller`) on the desktop.
    public func addMediaController() throws {
        let area = Self.mediaController
        try evaluateScript("desktops()[0].addWidget('org.kde.plasma.mediacontroller', \(area.x), \(area.y), \(area.width), \(area.height))")
    }

    /// Clicks one of the applet's buttons with the X server's test pointer (XTest), as a user's click arrives.
    public func click(_ button: Button) throws {
        let x = switch button { case .previous: 299; case .playPause: 342; case .next: 387 }
        try pointer(["click", String(x), "458"])
    }

    /// Runs `pointerScript` with `arguments` (`move x y` or `click x y`).
    private func pointer(_ arguments: [String]) throws {
        let done = try ChildProcess.run("/usr/bin/python3", ["-c", Self.pointerScript, display] + arguments,
                                        environment: environment(wayland: false), timeout: 20)
        guard done.status == 0 else { throw TestHarnessError("XTest \(arguments) failed: \(done.stderr)") }
    }

    /// Invokes one of KDE's global media shortcuts (`playpausemedia`, `playmedia`, `pausemedia`, `nextmedia`,
    /// `previousmedia`, `stopmedia`) through kglobalaccel, as the keyboard's media keys do.
    public func invokeShortcut(_ name: String) throws {
        _ = try client.call(destination: "org.kde.kglobalaccel", path: "/component/mediacontrol",
                            interface: "org.kde.kglobalaccel.Component", method: "invokeShortcut",
                            arguments: [.string(name)], timeout: 10)
    }

    /// The middle of where the applet draws the cover (Breeze, this size).
    public static let coverMiddle = (x: 198, y: 225, width: 60, height: 60)

    /// Locks the screen as the user's shortcut does (`org.freedesktop.ScreenSaver.Lock`: kwin starts
    /// kscreenlocker_greet) and waits until the locker says it is active.
    public func lock(timeout: Double = 30) throws {
        _ = try client.call(destination: "org.freedesktop.ScreenSaver", path: "/ScreenSaver",
                            interface: "org.freedesktop.ScreenSaver", method: "Lock", timeout: 20)
        guard eventually(timeout: timeout, { (try? isLocked()) == true }) else { throw TestHarnessError("the screen did not lock") }
    }

    public func isLocked() throws -> Bool {
        try client.call(destination: "org.freedesktop.ScreenSaver", path: "/ScreenSaver",
                        interface: "org.freedesktop.ScreenSaver", method: "GetActive", timeout: 10).first?.boolValue == true
    }

    /// The lock screen shows its controls (the password field, the media controls) only after the pointer
    /// moves, as a user's hand on the mouse does; its buttons sit below the password field (Breeze, 1280×800).
    public func wakeLockScreen() throws {
        for step in 0..<5 { try movePointer(x: 600 + step * 10, y: 400 + step * 5) }
    }

    public enum LockScreenButton { case previous, playPause, next }

    /// Where the lock screen draws the media controls' cover (its middle).
    public static let lockScreenCoverMiddle = (x: 510, y: 512, width: 26, height: 26)

    /// Clicks one of the lock screen's media buttons.
    public func clickOnLockScreen(_ button: LockScreenButton) throws {
        let x = switch button { case .previous: 675; case .playPause: 720; case .next: 765 }
        try pointer(["click", String(x), "524"])
    }

    private func movePointer(x: Int, y: Int) throws {
        try pointer(["move", String(x), String(y)])
    }

    /// Saves the whole screen (the X display kwin draws on) as a PNG, and returns the share (0…1) of the
    /// pixels of `area` within a small distance of the colour `rgb` (e.g. 0xFF8000) in it.
    @discardableResult
    public func screenshot(to file: URL, share rgb: Int = 0, in area: (x: Int, y: Int, width: Int, height: Int) = coverMiddle)
        throws -> Double {
        let raw = home.url.appendingPathComponent("screen.xwd")
        let dumped = try ChildProcess.run("xwd", ["-root", "-silent", "-display", display, "-out", raw.path],
                                          environment: environment(wayland: false), timeout: 30)
        guard dumped.status == 0 else { throw TestHarnessError("xwd failed: \(dumped.stderr)") }
        let converted = try ChildProcess.run("/usr/bin/python3", ["-c", Self.xwdToPNG, raw.path, file.path]
                                             + [area.x, area.y, area.width, area.height, rgb].map(String.init), timeout: 60)
        guard converted.status == 0, let share = Double(converted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestHarnessError("the screenshot was not converted: \(converted.stderr)")
        }
        return share
    }

    // MARK: What the applet reads

    /// The player as the applet's data engine (`mpris2`) has it.
    public struct PlayerState: Decodable, Equatable {
        public let title: String?
        public let artist: [String]?
        public let art: String?
        public let status: String?
    }

    /// The newest state the probe printed for the player `source` (the bus name after `org.mpris.MediaPlayer2.`),
    /// starting the probe on first use: a `qmlscene` that reads the same data engine as the applet.
    public func player(_ source: String) throws -> PlayerState? {
        if probe == nil { probe = try startProbe(source) }
        let prefix = "qml: PROBE "
        guard let line = probe?.standardError.split(separator: "\n").last(where: { $0.hasPrefix(prefix) }) else { return nil }
        return try? JSONDecoder().decode(PlayerState.self, from: Data(line.dropFirst(prefix.count).utf8))
    }

    private func startProbe(_ source: String) throws -> ChildProcess {
        let file = home.url.appendingPathComponent("probe.qml")
        try """
        import QtQuick 2.15
        import org.kde.plasma.core 2.0 as PlasmaCore
        Item {
            PlasmaCore.DataSource { id: mpris; engine: "mpris2"; connectedSources: sources }
            Timer {
                interval: 100; running: true; repeat: true
                onTriggered: {
                    var d = mpris.data["\(source)"];
                    if (d && d.Metadata) print("PROBE " + JSON.stringify({title: d.Metadata["xesam:title"],
                        artist: d.Metadata["xesam:artist"], art: d.Metadata["mpris:artUrl"], status: d.PlaybackStatus}));
                }
            }
        }
        """.write(to: file, atomically: true, encoding: .utf8)
        var environment = environment(wayland: false)
        environment["QT_QPA_PLATFORM"] = "offscreen"
        environment["QT_QUICK_BACKEND"] = "software"
        // qml's print() goes to standard error, as `qml: PROBE {…}`.
        return try ChildProcess(Self.qmlscene, [file.path], environment: environment, logDirectory: home.url, name: "probe")
    }

    // MARK: Setting up

    @discardableResult
    private func start(_ executable: String, _ arguments: [String], wayland: Bool = false) throws -> ChildProcess {
        let process = try ChildProcess(executable, arguments, environment: environment(wayland: wayland), logDirectory: home.url)
        processes.append(process)
        return process
    }

    /// The private bus and home, no display of this machine; `wayland`: Qt programs draw inside kwin.
    private func environment(wayland: Bool) -> [String: String] {
        var environment = sessionBus.environment
        for key in ["WAYLAND_DISPLAY", "DISPLAY", "PULSE_SERVER", "QT_QPA_PLATFORM"] { environment[key] = nil }
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = home.url.appendingPathComponent("runtime").path
        for (key, folder) in [("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache"),
                              ("XDG_STATE_HOME", "state")] {
            environment[key] = home.url.appendingPathComponent(folder).path
        }
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
        environment["DISPLAY"] = wayland ? nil : display
        if wayland {
            environment["WAYLAND_DISPLAY"] = Self.waylandSocket
            environment["QT_QPA_PLATFORM"] = "wayland"
        }
        return environment
    }

    private static func prepare(_ home: URL) throws {
        for folder in ["bin", "data", "config/pulse", "cache", "state"] {
            try FileManager.default.createDirectory(at: home.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try "autospawn = no\n".write(to: home.appendingPathComponent("config/pulse/client.conf"), atomically: true, encoding: .utf8)
        // No lock after idle in the middle of a test: only `lock` locks.
        try "[Daemon]\nAutolock=false\nLockOnResume=false\n".write(to: home.appendingPathComponent("config/kscreenlockerrc"),
                                                                   atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: home.appendingPathComponent("runtime"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    /// `move X Y` moves the X server's test pointer there; `click X Y` moves it and clicks the first button
    /// (libXtst through ctypes).
    static let pointerScript = """
    import ctypes, sys, time
    x11, xtst = ctypes.CDLL('libX11.so.6'), ctypes.CDLL('libXtst.so.6')
    x11.XOpenDisplay.restype = ctypes.c_void_p
    d = ctypes.c_void_p(x11.XOpenDisplay(sys.argv[1].encode()))
    if not d: sys.exit('cannot open the display')
    xtst.XTestFakeMotionEvent(d, -1, int(sys.argv[3]), int(sys.argv[4]), 0); x11.XFlush(d); time.sleep(0.1)
    if sys.argv[2] == 'click':
        time.sleep(0.2)
        xtst.XTestFakeButtonEvent(d, 1, 1, 0); x11.XFlush(d); time.sleep(0.1)
        xtst.XTestFakeButtonEvent(d, 1, 0, 0); x11.XFlush(d)
    x11.XCloseDisplay(d)
    """

    /// An `xwd` dump of a 24-bit screen (ZPixmap, 32 bits a pixel) written as an RGB PNG; prints the share of
    /// the pixels of the area (x, y, width, height) within a distance of 40 per channel of the colour given last.
    static let xwdToPNG = """
    import struct, sys, zlib
    data = open(sys.argv[1], 'rb').read()
    h = struct.unpack('>25I', data[:100])
    width, height, byte_order, bytes_per_line, colours = h[4], h[5], h[7], h[12], h[19]
    start = h[0] + colours * 12
    rows = []
    for y in range(height):
        line = data[start + y * bytes_per_line:start + y * bytes_per_line + width * 4]
        pixels = bytearray()
        for x in range(width):
            p = line[4 * x:4 * x + 4]
            b, g, r = (p[0], p[1], p[2]) if byte_order == 0 else (p[3], p[2], p[1])
            pixels += bytes((r, g, b))
        rows.append(b'\\x00' + bytes(pixels))
    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body) & 0xffffffff)
    png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0))
    png += chunk(b'IDAT', zlib.compress(b''.join(rows), 6)) + chunk(b'IEND', b'')
    open(sys.argv[2], 'wb').write(png)
    ax, ay, aw, ah, rgb = map(int, sys.argv[3:8])
    want = ((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255)
    near = sum(1 for y in range(ay, ay + ah) for x in range(ax, ax + aw)
               if all(abs(c - w) <= 40 for c, w in zip(rows[y][1 + 3 * x:4 + 3 * x], want)))
    print(near / (aw * ah))
    """
}
