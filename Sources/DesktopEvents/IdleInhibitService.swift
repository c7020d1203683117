import DBus

/// A service that can hold off the *automatic* (idle) suspend of the machine, and how it is asked.
/// None of them is asked to keep the screen on or unlocked: music plays fine behind a locked screen.
///
/// - `portal`: `org.freedesktop.portal.Inhibit.Inhibit(window, flags, options)` answers a request
///   handle; the inhibitor lasts until `org.freedesktop.portal.Request.Close` on it.
/// - `gnomeSession`: `org.gnome.SessionManager.Inhibit(app, xid, reason, flags)` answers a cookie for
///   `Uninhibit`. GNOME's power plugin skips its idle suspend while a *suspend* (4) inhibitor is held.
/// - `powerManagement`: KDE's `org.freedesktop.PowerManagement.Inhibit.Inhibit(app, reason)` answers a
///   cookie for `UnInhibit`; PowerDevil treats it as "no automatic sleep".
/// - `logind`: `Manager.Inhibit("idle", …, "block")` answers a file descriptor, held until closed. Only
///   where logind's own `IdleAction` suspends (`IdleInhibitor` checks): elsewhere the desktop decides.
///
/// Every one of them also drops what a client held when the client leaves the bus (logind: when the
/// descriptor's last copy closes), so a crashed daemon keeps nobody awake.
enum IdleInhibitService: CaseIterable, CustomStringConvertible {
    case portal, gnomeSession, powerManagement, logind

    static let application = "Quaver"
    static let reason = "Playing music"
    /// The session manager's and the portal's "suspend" flag. Never 8 ("idle"): that one keeps the
    /// screen from blanking and locking, which nobody asked of a music player.
    static let suspendFlag: UInt32 = 4
    /// logind IdleAction values that put the machine to sleep (logind.conf(5)).
    static let sleepingIdleActions: Set<String> = ["suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate"]

    var busName: String {
        switch self {
        case .portal: return "org.freedesktop.portal.Desktop"
        case .gnomeSession: return "org.gnome.SessionManager"
        case .powerManagement: return "org.freedesktop.PowerManagement"
        case .logind: return "org.freedesktop.login1"
        }
    }

    var isOnSystemBus: Bool { self == .logind }

    var description: String {
        switch self {
        case .portal: return "the desktop portal"
        case .gnomeSession: return "GNOME's session manager"
        case .powerManagement: return "the PowerManagement service"
        case .logind: return "logind"
        }
    }

    /// The method call that takes an inhibitor.
    var take: (path: ObjectPath, interface: String, method: String, arguments: [DBusValue]) {
        switch self {
        case .portal:
            let options = DBusValue.dictionary(key: "s", value: "v", [(.string("reason"), .variant(.string(Self.reason)))])
            return ("/org/freedesktop/portal/desktop", "org.freedesktop.portal.Inhibit", "Inhibit",
                    [.string(""), .uint32(Self.suspendFlag), options])
        case .gnomeSession:
            return ("/org/gnome/SessionManager", "org.gnome.SessionManager", "Inhibit",
                    [.string(Self.application), .uint32(0), .string(Self.reason), .uint32(Self.suspendFlag)])
        case .powerManagement:
            return ("/org/freedesktop/PowerManagement/Inhibit", "org.freedesktop.PowerManagement.Inhibit", "Inhibit",
                    [.string(Self.application), .string(Self.reason)])
        case .logind:
            return ("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "Inhibit",
                    [.string("idle"), .string(Self.application), .string(Self.reason), .string("block")])
        }
    }

    /// What the service's answer holds, checked by type (nil: an answer of another shape).
    func token(from reply: [DBusValue]) -> IdleInhibitToken? {
        guard reply.count == 1 else { return nil }
        switch (self, reply[0]) {
        case (.portal, .objectPath(let handle)): return .request(handle)
        case (.gnomeSession, .uint32(let cookie)), (.powerManagement, .uint32(let cookie)): return .cookie(cookie)
        case (.logind, .unixFD(let descriptor)): return .descriptor(descriptor)
        default: return nil
        }
    }

    /// The call that gives the inhibitor back; nil for logind, whose descriptor is closed instead.
    func release(_ token: IdleInhibitToken) -> (path: ObjectPath, interface: String, method: String, arguments: [DBusValue])? {
        switch (self, token) {
        case (.portal, .request(let handle)): return (handle, "org.freedesktop.portal.Request", "Close", [])
        case (.gnomeSession, .cookie(let cookie)):
            return ("/org/gnome/SessionManager", "org.gnome.SessionManager", "Uninhibit", [.uint32(cookie)])
        case (.powerManagement, .cookie(let cookie)):
            return ("/org/freedesktop/PowerManagement/Inhibit", "org.freedesktop.PowerManagement.Inhibit", "UnInhibit",
                    [.uint32(cookie)])
        default: return nil
        }
    }
}

/// What a service hands out for one inhibitor.
enum IdleInhibitToken {
    case request(ObjectPath)
    case cookie(UInt32)
    case descriptor(ReceivedFileDescriptor)
}
