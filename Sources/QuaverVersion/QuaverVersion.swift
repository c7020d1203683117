// QuaverVersion: the release's version, in one place. Pure Swift: imports nothing.
/// The version of this Quaver release: `quaver --version`, `quaverd --version`, org.quaver.Quaver1.Version,
/// and the Debian package (the Makefile asks the built `quaver --version`).
public let quaverVersion = "0.1.0"
