import DBus
import Foundation
import Glibc

/// GNOME Shell 43 running headless on private session and system buses, for tests that check what a
/// real desktop shows and does. Driven through `org.gnome.Shell.Eval`, which GNOME 43 answers only in
/// "unsafe mode": a tiny extension written into the shell's own XDG_DATA_HOME turns that on at start.
///
///   test ──Eval(js)──▶ gnome-shell --wayland --headless (virtual monitor) ──MPRIS──▶ quaverd
///                       ▲ Clutter virtual pointer / keyboard (clicks, media keys)
///   gsd-media-keys ─────┘ grabs the media keys through the shell (`startMediaKeys`)
///
/// Everything it starts is stopped by PID; the shell with SIGKILL, since GNOME Shell 43 crashes in its
/// own teardown (mutter) when asked to stop.
public final class GnomeShell {
    /// The shell needs a system bus to start at all; nothing in these tests listens there.
    public let systemBus: PrivateBus
    /// The session bus the shell, gsd-media-keys and the players under test share.
    public let sessionBus: PrivateBus
    /// The shell's HOME, XDG folders and runtime directory.
    public let home: TemporaryDirectory
    private let shell: ChildProcess
    private let client: Connection
    private var mediaKeys: ChildProcess?
    /// The GDM stand-in on the system bus, when the shell was started able to lock.
    private var displayManager: ChildProcess?

    static let extensionUUID = "unsafe-mode@quaver-tests"

    /// Whether `gnome-shell` can be run here (`scripts/deps test` installs it).
    public static var isInstalled: Bool { (try? ChildProcess.resolve("gnome-shell")) != nil }

    /// Whether a shell started `canLock` can lock here: GNOME Shell 43 makes its screen shield only where
    /// `/run/systemd/seats` exists (its LoginManager's test for systemd), which a test cannot provide.
    public static var canLockHere: Bool { FileManager.default.fileExists(atPath: "/run/systemd/seats") }

    /// Starts the shell and waits until it has finished starting up (`timeout` seconds at most: 1–2 s on
    /// an idle machine, over 15 s while other builds load it). `canLock`: a stand-in for GDM answers on the
    /// system bus first, which the shell asks at start before it makes its screen shield.
    /// `dataFiles` (text by path under a data folder first in `$XDG_DATA_DIRS`, where `make install` puts them
    /// under /usr/share) are in place before the shell starts: search providers (which the shell reads from the
    /// system's data folders only, once, at start) and desktop entries.
    public init(timeout: Double = 60, canLock: Bool = false, dataFiles: [String: String] = [:]) throws {
        systemBus = try PrivateBus()
        sessionBus = try PrivateBus()
        home = try TemporaryDirectory(prefix: "gnome-shell")
        try Self.prepare(home.url, dataFiles: dataFiles)
        if canLock { displayManager = try Self.startDisplayManager(on: systemBus, logDirectory: home.url) }
        shell = try ChildProcess("gnome-shell", ["--wayland", "--headless", "--no-x11", "--virtual-monitor", "1280x800"],
                                 environment: Self.environment(home: home.url, session: sessionBus, system: systemBus),
                                 logDirectory: home.url)
        client = try Connection(address: sessionBus.address)
        let shell = shell
        guard eventually(timeout: timeout, { !shell.isRunning || (try? self.eval("!Main.layoutManager._startingUp")) == "true" }),
              shell.isRunning else {
            let log = shell.standardError.suffix(2000)
            stop()
            throw TestHarnessError("gnome-shell did not start: \(log)")
        }
        _ = try eval("Main.overview.hide()")
    }

    deinit { stop() }

    /// Starts gsd-media-keys, kept until `stop`. Returns once it has asked the shell to grab the media keys
    /// (`GrabAccelerators`), so a key pressed afterwards reaches it.
    public func startMediaKeys(timeout: Double = 20) throws {
        guard mediaKeys == nil else { return }
        var environment = Self.environment(home: home.url, session: sessionBus, system: systemBus)
        environment["WAYLAND_DISPLAY"] = "wayland-0"
        environment["GDK_BACKEND"] = "wayland"
        let daemon = try ChildProcess("/usr/libexec/gsd-media-keys", [], environment: environment,
                                      logDirectory: home.url, name: "gsd-media-keys")
        mediaKeys = daemon
        let grabbed = "Main.shellDBusService._grabbedAccelerators.size > 0"  // private in GNOME 43
        guard eventually(timeout: timeout, { !daemon.isRunning || (try? eval(grabbed)) == "true" }), daemon.isRunning else {
            throw TestHarnessError("gsd-media-keys did not grab the media keys: \(daemon.standardError.suffix(2000))")
        }
    }

    /// Stops gsd-media-keys, the shell (SIGKILL) and both buses; stopping again does nothing.
    public func stop() {
        mediaKeys?.stop()
        displayManager?.stop()
        if shell.isRunning {
            shell.send(SIGKILL)
            shell.waitForExit(timeout: 10)
        }
        shell.stop()  // reaped already: only forgets it
        client.close()
        sessionBus.stop()
        systemBus.stop()
    }

    // MARK: Driving the shell

    /// Evaluates JavaScript inside the shell and returns the result as JSON text (empty for `undefined`).
    @discardableResult
    public func eval(_ script: String) throws -> String {
        let reply = try client.call(destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell",
                                    method: "Eval", arguments: [.string(script)], timeout: 10)
        guard reply.count == 2, let text = reply[1].stringValue else { throw TestHarnessError("Eval answered \(reply)") }
        guard reply[0].boolValue == true else { throw TestHarnessError("Eval failed: \(text)\nscript: \(script)") }
        return text
    }

    /// Clicks the middle of `actor` (a JavaScript expression for a Clutter actor) with a virtual pointer,
    /// as a user's click arrives: through the seat, picked by position. Throws when the actor is not on
    /// screen or does not take clicks (a button the app made insensitive).
    public func click(_ actor: String) throws {
        let clicked = try eval("""
            (() => {
                const { Clutter, GLib } = imports.gi;
                const actor = \(actor);
                if (!actor || !actor.mapped || !actor.reactive) return false;
                global._quaverTestPointer ??= Clutter.get_default_backend().get_default_seat()
                    .create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
                const pointer = global._quaverTestPointer;
                const [x, y] = actor.get_transformed_position();
                const [width, height] = actor.get_transformed_size();
                pointer.notify_absolute_motion(GLib.get_monotonic_time(), x + width / 2, y + height / 2);
                pointer.notify_button(GLib.get_monotonic_time(), Clutter.BUTTON_PRIMARY, Clutter.ButtonState.PRESSED);
                pointer.notify_button(GLib.get_monotonic_time(), Clutter.BUTTON_PRIMARY, Clutter.ButtonState.RELEASED);
                return true;
            })()
            """)
        guard clicked == "true" else { throw TestHarnessError("\(actor) is not on screen or takes no clicks") }
    }

    /// Presses and releases a key by its Clutter keyval name (`KEY_AudioPlay`) on a virtual keyboard.
    public func press(_ keyval: String) throws {
        try eval("""
            (() => {
                const { Clutter, GLib } = imports.gi;
                global._quaverTestKeyboard ??= Clutter.get_default_backend().get_default_seat()
                    .create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
                const keyboard = global._quaverTestKeyboard;
                keyboard.notify_keyval(GLib.get_monotonic_time(), Clutter.\(keyval), Clutter.KeyState.PRESSED);
                keyboard.notify_keyval(GLib.get_monotonic_time(), Clutter.\(keyval), Clutter.KeyState.RELEASED);
            })()
            """)
    }

    /// Locks the screen as the user's shortcut does (`Main.screenShield.lock(false)`) and waits until the shell
    /// is in its unlock-dialog mode. Locking takes a keyboard grab, so the virtual keyboard is made first.
    public func lock(timeout: Double = 20) throws {
        try eval("""
            (() => {
                const { Clutter } = imports.gi;
                global._quaverTestKeyboard ??= Clutter.get_default_backend().get_default_seat()
                    .create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
                if (!Main.screenShield) throw new Error('no screen shield: the shell cannot lock');
                Main.screenShield.lock(false);
            })()
            """)
        guard eventually(timeout: timeout, { (try? isLocked()) == true }) else {
            throw TestHarnessError("the shell did not lock: \(String(describing: try? eval("Main.sessionMode.currentMode")))")
        }
    }

    /// Whether the screen shield is up and the shell is in its lock screen mode.
    public func isLocked() throws -> Bool {
        try eval("!!Main.screenShield && Main.screenShield.locked && Main.sessionMode.currentMode === 'unlock-dialog'") == "true"
    }

    /// Saves what `actor` covers on screen as a PNG (`org.gnome.Shell.Screenshot.ScreenshotArea`).
    public func screenshot(of actor: String, to file: URL) throws {
        let area = try eval("""
            (() => {
                const actor = \(actor);
                const [x, y] = actor.get_transformed_position();
                const [width, height] = actor.get_transformed_size();
                return [x, y, width, height].map(Math.round);
            })()
            """)
        let numbers = area.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",")
            .compactMap { Int32($0) }
        guard numbers.count == 4 else { throw TestHarnessError("no area for \(actor): \(area)") }
        let reply = try client.call(destination: "org.gnome.Shell.Screenshot", path: "/org/gnome/Shell/Screenshot",
                                    interface: "org.gnome.Shell.Screenshot", method: "ScreenshotArea",
                                    arguments: numbers.map(DBusValue.int32) + [.boolean(false), .string(file.path)],
                                    timeout: 10)
        guard reply.first?.boolValue == true else { throw TestHarnessError("ScreenshotArea answered \(reply)") }
    }

    // MARK: Setting up

    /// A stand-in for GDM on the private system bus: GNOME Shell 43 asks `org.gnome.DisplayManager.Manager`
    /// for its Version at start (`LoginManager.canLock`) and makes its screen shield only if it answers.
    private static func startDisplayManager(on bus: PrivateBus, logDirectory: URL) throws -> ChildProcess {
        let script = """
            import dbus, dbus.service, dbus.mainloop.glib
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.SessionBus()
            name = dbus.service.BusName('org.gnome.DisplayManager', bus)
            class Manager(dbus.service.Object):
                @dbus.service.method('org.freedesktop.DBus.Properties', in_signature='ss', out_signature='v')
                def Get(self, interface, prop):
                    if prop != 'Version':
                        raise dbus.exceptions.DBusException('no such property', name='org.freedesktop.DBus.Error.UnknownProperty')
                    return '43.0'
            Manager(bus, '/org/gnome/DisplayManager/Manager')
            print('ready', flush=True)
            GLib.MainLoop().run()
            """
        let process = try ChildProcess("/usr/bin/python3", ["-c", script], environment: bus.environment,
                                       logDirectory: logDirectory, name: "gdm-stand-in")
        guard eventually(timeout: 20, { process.standardOutput.contains("ready") || !process.isRunning }), process.isRunning else {
            throw TestHarnessError("the GDM stand-in did not start: \(process.standardError)")
        }
        return process
    }

    /// The folders, the unsafe-mode extension, the settings (keyfile backend) and a PulseAudio client
    /// configuration that never spawns a sound server (the shell's volume control would try).
    private static func prepare(_ home: URL, dataFiles: [String: String]) throws {
        var files = [
            "data/gnome-shell/extensions/\(extensionUUID)/metadata.json": """
                {"uuid": "\(extensionUUID)", "name": "Quaver tests: unsafe mode",
                 "description": "Lets the tests call org.gnome.Shell.Eval", "shell-version": ["43"]}
                """,
            "data/gnome-shell/extensions/\(extensionUUID)/extension.js": """
                function init() {
                    return { enable() { global.context.unsafe_mode = true; }, disable() {} };
                }
                """,
            "config/glib-2.0/settings/keyfile": """
                [org/gnome/shell]
                enabled-extensions=['\(extensionUUID)']
                welcome-dialog-last-shown-version='999'

                [org/gnome/desktop/interface]
                enable-animations=false

                [org/gnome/desktop/session]
                idle-delay=uint32 0
                """,
            "config/pulse/client.conf": "autospawn = no\n",
        ]
        for (path, text) in dataFiles { files["system-data/" + path] = text }
        for (path, text) in files {
            let url = home.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let runtime = home.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    /// What the shell and gsd-media-keys run with: this machine's environment without any display, pointed
    /// at the private buses and the temporary home.
    private static func environment(home: URL, session: PrivateBus, system: PrivateBus) -> [String: String] {
        var environment = session.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = system.address
        for key in ["WAYLAND_DISPLAY", "DISPLAY", "PULSE_SERVER"] { environment[key] = nil }
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = home.appendingPathComponent("runtime").path
        let systemData = ProcessInfo.processInfo.environment["XDG_DATA_DIRS"] ?? "/usr/local/share:/usr/share"
        environment["XDG_DATA_DIRS"] = home.appendingPathComponent("system-data").path + ":" + systemData
        for (key, folder) in [("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache"),
                              ("XDG_STATE_HOME", "state")] {
            environment[key] = home.appendingPathComponent(folder).path
        }
        // The keyfile backend reads the settings written in `prepare` (no dconf service on a private bus);
        // no accessibility bus; local files only (no gvfs daemons to activate).
        environment["GSETTINGS_BACKEND"] = "keyfile"
        environment["XDG_CURRENT_DESKTOP"] = "GNOME"
        environment["NO_AT_BRIDGE"] = "1"
        environment["GTK_A11Y"] = "none"
        environment["GIO_USE_VFS"] = "local"
        return environment
    }
}
