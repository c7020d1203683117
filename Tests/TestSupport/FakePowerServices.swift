import Foundation

/// Stand-ins for the session-bus services that keep a machine from suspending on idle (python3-dbus), on
/// a private bus: the desktop portal's `org.freedesktop.portal.Inhibit`, GNOME's `org.gnome.SessionManager`
/// and KDE's `org.freedesktop.PowerManagement.Inhibit`. The real ones need a whole desktop session (portal
/// backends, gnome-session with systemd, PowerDevil with its KDE session), which cannot run here.
///
/// Each inhibitor taken, released, or dropped because its client left the bus (what the real services do)
/// is printed, followed by `held` and the services holding one now (`-` for none), so a test reads the
/// last line for the current state. `restart()` replaces the process, as a service restart does.
public final class FakePowerServices {
    public let bus: PrivateBus
    private var process: ChildProcess
    private var earlierOutput = ""

    public init(bus: PrivateBus) throws {
        self.bus = bus
        process = try Self.launch(on: bus)
    }

    /// Every line printed so far, by this process and the ones it replaced, in order.
    public var log: [String] {
        (earlierOutput + process.standardOutput).split(separator: "\n").map(String.init)
    }

    /// The services holding an inhibitor now (`portal`, `gnome`, `pm`), sorted; a restarted process holds none.
    public var held: [String] {
        let log = process.standardOutput.split(separator: "\n")
        guard let last = log.last(where: { $0.hasPrefix("held ") }) else { return [] }
        return last.dropFirst(5).split(separator: ",").map(String.init).filter { $0 != "-" }
    }

    /// Stops the services (by PID) and starts them again under a new unique name.
    public func restart() throws {
        process.stop()
        earlierOutput += process.standardOutput
        process = try Self.launch(on: bus)
    }

    private static func launch(on bus: PrivateBus) throws -> ChildProcess {
        let script = bus.directory.url.appendingPathComponent("fake-power-services.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let process = try ChildProcess("/usr/bin/python3", [script.path], environment: bus.environment,
                                       logDirectory: bus.directory.url, name: "fake-power-services")
        guard eventually(timeout: 20, { process.standardOutput.contains("ready") || !process.isRunning }),
              process.isRunning else { throw TestHarnessError("fake power services did not start: \(process.standardError)") }
        return process
    }

    static let script = """
    import dbus, dbus.service, dbus.mainloop.glib
    from gi.repository import GLib
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    held = {}   # (service, id) -> client
    counter = [0]
    def say(*words):
        print(*words, flush=True)
    def show():
        say('held', ','.join(sorted(set(s for s, _ in held))) or '-')
    def add(service, client, detail):
        counter[0] += 1
        key = (service, counter[0])
        held[key] = client
        say(service, 'inhibit', detail)
        def gone(owner):
            if owner == '' and key in held:
                del held[key]
                say(service, 'dropped with its client')
                show()
        bus.watch_name_owner(client, gone)
        show()
        return counter[0]
    def remove(service, number):
        if held.pop((service, number), None) is not None:
            say(service, 'released')
        else:
            say(service, 'release of an unknown inhibitor', number)
        show()

    class Request(dbus.service.Object):
        def __init__(self, path, number):
            dbus.service.Object.__init__(self, bus, path)
            self.number = number
        @dbus.service.method('org.freedesktop.portal.Request')
        def Close(self):
            remove('portal', self.number)
            self.remove_from_connection()

    class Portal(dbus.service.Object):
        @dbus.service.method('org.freedesktop.portal.Inhibit', in_signature='sua{sv}', out_signature='o',
                             sender_keyword='sender')
        def Inhibit(self, window, flags, options, sender=None):
            number = add('portal', sender, 'flags=%d reason=%s' % (flags, options.get('reason', '')))
            path = '/org/freedesktop/portal/desktop/request/1/t%d' % number
            Request(path, number)
            return dbus.ObjectPath(path)

    class GnomeSession(dbus.service.Object):
        @dbus.service.method('org.gnome.SessionManager', in_signature='susu', out_signature='u', sender_keyword='sender')
        def Inhibit(self, app, xid, reason, flags, sender=None):
            return add('gnome', sender, 'flags=%d app=%s' % (flags, app))
        @dbus.service.method('org.gnome.SessionManager', in_signature='u')
        def Uninhibit(self, cookie):
            remove('gnome', cookie)

    class PowerManagement(dbus.service.Object):
        @dbus.service.method('org.freedesktop.PowerManagement.Inhibit', in_signature='ss', out_signature='u',
                             sender_keyword='sender')
        def Inhibit(self, app, reason, sender=None):
            return add('pm', sender, 'app=%s' % app)
        @dbus.service.method('org.freedesktop.PowerManagement.Inhibit', in_signature='u')
        def UnInhibit(self, cookie):
            remove('pm', cookie)

    names = [dbus.service.BusName(n, bus) for n in
             ('org.freedesktop.portal.Desktop', 'org.gnome.SessionManager', 'org.freedesktop.PowerManagement')]
    Portal(bus, '/org/freedesktop/portal/desktop')
    GnomeSession(bus, '/org/gnome/SessionManager')
    PowerManagement(bus, '/org/freedesktop/PowerManagement/Inhibit')
    say('ready')
    GLib.MainLoop().run()
    """
}
