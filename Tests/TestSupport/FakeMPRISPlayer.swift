/// Another MPRIS player on the bus (python3-dbus): it takes the bus name given as its argument and, half a
/// second later, announces PlaybackStatus Playing, printing `sent` when it has.
public enum FakeMPRISPlayer {
    public static let script = """
    import sys, dbus, dbus.service, dbus.mainloop.glib
    from gi.repository import GLib
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName(sys.argv[1], bus)
    class Player(dbus.service.Object):
        @dbus.service.signal('org.freedesktop.DBus.Properties', signature='sa{sv}as')
        def PropertiesChanged(self, interface, changed, invalidated):
            pass
    p = Player(bus, '/org/mpris/MediaPlayer2')
    def play():
        p.PropertiesChanged('org.mpris.MediaPlayer2.Player', {'PlaybackStatus': 'Playing'}, [])
        print('sent', flush=True)
        return False
    GLib.timeout_add(500, play)
    GLib.MainLoop().run()
    """
}
