import Foundation

/// A notification server on the bus (python3-dbus): owns org.freedesktop.Notifications, answers each
/// Notify with a new id (1, 2, …) and prints one JSON line per call with its arguments (`image-path` and
/// the other string hints, `urgency`, `transient`), then `ready` once it owns the name.
/// `Notify` replies after the seconds given as its first argument (0: at once), for tests of a slow server.
/// `GetCapabilities` answers the comma-separated list given as the second argument (by default `body` and
/// `body-markup`, as GNOME Shell's do).
public enum FakeNotificationServer {
    public static let script = """
    import sys, json, time, dbus, dbus.service, dbus.mainloop.glib
    from gi.repository import GLib
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    delay = float(sys.argv[1]) if len(sys.argv) > 1 else 0
    capabilities = sys.argv[2].split(',') if len(sys.argv) > 2 else ['body', 'body-markup']
    bus = dbus.SessionBus()
    class Server(dbus.service.Object):
        next_id = 1
        @dbus.service.method('org.freedesktop.Notifications', in_signature='susssasa{sv}i', out_signature='u',
                             async_callbacks=('reply', 'error'))
        def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout, reply, error):
            number = Server.next_id
            Server.next_id += 1
            plain = {str(k): (int(v) if isinstance(v, (dbus.Byte, dbus.Boolean)) else str(v)) for k, v in hints.items()}
            print(json.dumps({'app': str(app), 'replaces': int(replaces), 'icon': str(icon), 'summary': str(summary),
                              'body': str(body), 'hints': plain, 'timeout': int(timeout), 'id': number}), flush=True)
            GLib.timeout_add(int(delay * 1000), lambda: reply(dbus.UInt32(number)) and False)
        @dbus.service.method('org.freedesktop.Notifications', out_signature='as')
        def GetCapabilities(self):
            return capabilities
        @dbus.service.method('org.freedesktop.Notifications', out_signature='ssss')
        def GetServerInformation(self):
            return ('fake', 'quaver tests', '1', '1.2')
    server = Server(bus, '/org/freedesktop/Notifications')
    name = dbus.service.BusName('org.freedesktop.Notifications', bus)
    print('ready', flush=True)
    GLib.MainLoop().run()
    """

    /// The Notify calls printed so far, each as a dictionary of its arguments.
    public static func calls(in output: String) -> [[String: Any]] {
        output.split(separator: "\n").filter { $0.hasPrefix("{") }.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }
}
