import DBus

/// `org.mpris.MediaPlayer2`: who we are. Nothing here changes while running, so it is never signalled.
/// Fullscreen and CanSetFullscreen are optional and left out: Quaver has no window.
extension MPRISService {
    func makeRootInterface() -> InterfaceDescription {
        InterfaceDescription(name: Self.rootInterface, methods: [
            // Nothing to raise: CanRaise is false, and the spec makes Raise a no-op then.
            command("Raise") { _, _ in },
            command("Quit") { service, _ in service.configuration.quit() },
        ], properties: [
            property("CanQuit", "b") { _ in .boolean(true) },
            property("CanRaise", "b") { _ in .boolean(false) },
            property("HasTrackList", "b") { _ in .boolean(true) },
            property("Identity", "s") { _ in .string("Quaver") },
            // KDE and GNOME take the name and icon from this installed desktop file (dbus/quaver.desktop).
            property("DesktopEntry", "s") { _ in .string("quaver") },
            property("SupportedUriSchemes", "as") { _ in .stringArray(OpenableURI.schemes) },
            property("SupportedMimeTypes", "as") { .stringArray($0.supportedMimeTypes) },
        ])
    }
}
