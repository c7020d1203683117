import DBus
import EventLoop
import Foundation

/// A stand-in for logind on a private bus standing in for the system bus (python3-dbus): Inhibit hands
/// out the write end of a pipe and prints `released <what>` when every copy is closed, as logind sees a lock
/// released; the Manager's `IdleAction` is `idleAction`; `org.quaver.FakeLogind` lets the test emit PrepareForSleep, flip Session.Active, and
/// `Note` lets our code print into the same ordered log.
public final class FakeLogind {
    public let bus: PrivateBus
    public let process: ChildProcess

    public init(idleAction: String = "ignore") throws {
        bus = try PrivateBus()
        let script = bus.directory.url.appendingPathComponent("fake-logind.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        process = try ChildProcess("/usr/bin/python3", [script.path, idleAction], environment: bus.environment,
                                   logDirectory: bus.directory.url, name: "fake-logind")
        let process = process
        guard eventually(timeout: 20, { process.standardOutput.contains("ready") || !process.isRunning }),
              process.isRunning else { throw TestHarnessError("fake logind did not start: \(process.standardError)") }
    }

    /// Lines printed so far, in order.
    public var log: [String] { process.standardOutput.split(separator: "\n").map(String.init) }

    /// Calls a control method of the fake, without blocking the loop our code runs on.
    public func control(_ connection: Connection, _ method: String, _ arguments: [DBusValue] = []) {
        connection.call(destination: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                        interface: "org.quaver.FakeLogind", method: method, arguments: arguments) { _ in }
    }

    static let script = """
    import os, sys, dbus, dbus.service, dbus.mainloop.glib
    from gi.repository import GLib
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName('org.freedesktop.login1', bus)
    SESSION = '/org/freedesktop/login1/session/c1'
    def say(*words):
        print(*words, flush=True)

    class Session(dbus.service.Object):
        active = True
        @dbus.service.method('org.freedesktop.DBus.Properties', in_signature='ss', out_signature='v')
        def Get(self, interface, prop):
            return dbus.Boolean(self.active)
        @dbus.service.signal('org.freedesktop.DBus.Properties', signature='sa{sv}as')
        def PropertiesChanged(self, interface, changed, invalidated):
            pass

    class Manager(dbus.service.Object):
        @dbus.service.method('org.freedesktop.DBus.Properties', in_signature='ss', out_signature='v')
        def Get(self, interface, prop):
            if prop != 'IdleAction':
                raise dbus.exceptions.DBusException('no property ' + prop)
            return sys.argv[1]
        @dbus.service.method('org.freedesktop.login1.Manager', in_signature='ssss', out_signature='h')
        def Inhibit(self, what, who, why, mode):
            r, w = os.pipe()
            say('inhibit', what, who, "'%s'" % why, mode)
            def closed(fd, condition):
                say('released', what)
                os.close(fd)
                return False
            GLib.io_add_watch(r, GLib.IO_HUP | GLib.IO_ERR | GLib.IO_IN, closed)
            fd = dbus.types.UnixFd(w)
            os.close(w)
            return fd
        @dbus.service.method('org.freedesktop.login1.Manager', in_signature='u', out_signature='o')
        def GetSessionByPID(self, pid):
            return dbus.ObjectPath(SESSION)
        @dbus.service.signal('org.freedesktop.login1.Manager', signature='b')
        def PrepareForSleep(self, start):
            say('prepare-for-sleep', bool(start))
        @dbus.service.method('org.quaver.FakeLogind', in_signature='b')
        def Sleep(self, start):
            self.PrepareForSleep(start)
        @dbus.service.method('org.quaver.FakeLogind', in_signature='b')
        def SetActive(self, active):
            session.active = active
            session.PropertiesChanged('org.freedesktop.login1.Session', {'Active': dbus.Boolean(active)}, [])
        @dbus.service.method('org.quaver.FakeLogind', in_signature='s')
        def Note(self, text):
            say('note', text)

    manager = Manager(bus, '/org/freedesktop/login1')
    session = Session(bus, SESSION)
    say('ready')
    GLib.MainLoop().run()
    """
}
