// swift-tools-version:6.0
import PackageDescription

// Layers, each using only those above it (docs/ARCHITECTURE.md, "Layers"):
//   C interop   CDBus, CGLib, CGStreamer (system libraries), CCurl, CSQLite, CPulse and CGStreamerLibraries (libcurl,
//               libsqlite3, libpulse, GStreamer's pbutils and app, loaded on first use through CLibraryLoader),
//               CShims (macros and variadic C only)
//   wrappers    EventLoop (GLib main loop), DBus (libdbus), GStreamer (playbin, bus, messages),
//               PulseAudio (libpulse: the sound server's objects and their changes), SQLite (libsqlite3),
//               RemoteMedia (HTTP on libcurl, the media cache)
//   text        PublicText: credentials masked and lengths bounded in whatever the daemon shows (pure Swift)
//   core        PlayerCore: queue and playback state machine, pure Swift
//   engine      GStreamerEngine: PlayerCore.AudioEngine on playbin
//   adapters    MPRIS, DesktopEvents, DesktopNotifications, Session (and the file adapters below);
//               QuaverClient, quaverd as its clients see it
//   programs    quaverd, QuaverCLI (with QuaverVersion, and TerminalText for what the CLI prints),
//               SnapcastPlugin: each program's code; their entry points in Sources/programs, where quaver is
//               the release's one program; quaver-bench (Benchmarks/), with the tests' TestRigs
let v5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
    name: "Quaver",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "quaverd", targets: ["quaverd-alone"]),
        .executable(name: "quaver", targets: ["quaver"]),
        .executable(name: "quaver-snapcast-plugin", targets: ["quaver-snapcast-plugin"]),
        // libquaver-taglib.so: CTagLib, which the programs load on first use (CTagLibLoader).
        .library(name: "quaver-taglib", type: .dynamic, targets: ["CTagLib"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    ],
    targets: [
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1",
                       providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0",
                       providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CGStreamer", pkgConfig: "gstreamer-1.0",
                       providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),
        // A shared library opened on first use (dlopen), for the loaders of libsqlite3, libcurl, libpulse and GStreamer's
        // pbutils and app below and CTagLibLoader's.
        .target(name: "CLibraryLoader", linkerSettings: [.linkedLibrary("dl")]),
        // libpulse's headers (libpulse-dev), the library loaded on first use (dlopen): see CPulse.h.
        .target(name: "CPulse", dependencies: ["CGLib", "CLibraryLoader"]),
        // libsqlite3's header (libsqlite3-dev), its library loaded on first use (dlopen): see CSQLite.h.
        .target(name: "CSQLite", dependencies: ["CLibraryLoader"]),
        .target(name: "CShims", dependencies: ["CGLib", "CGStreamer", "CDBus"]),
        // GStreamer's pbutils, app, audio and base libraries (their headers come with CGStreamer's), loaded with gst_init
        // (dlopen): see CGStreamerLibraries.h.
        .target(name: "CGStreamerLibraries", dependencies: ["CGStreamer", "CLibraryLoader"]),
        // libcurl's headers (libcurl4-openssl-dev), its library loaded on first use (dlopen): see CCurl.h.
        .target(name: "CCurl", dependencies: ["CLibraryLoader"]),
        // fallocate(2), which Swift's Glibc hides: the media cache gives back what it no longer keeps.
        .target(name: "CFileSpace"),

        .target(name: "EventLoop", dependencies: ["CGLib", "CShims"], swiftSettings: v5),
        .target(name: "DBus", dependencies: ["CDBus", "CShims", "EventLoop", "PublicText"], swiftSettings: v5),
        .target(name: "GStreamer", dependencies: ["CGStreamer", "CGStreamerLibraries", "CGLib", "CShims", "EventLoop"], swiftSettings: v5),
        .target(name: "RemoteMedia", dependencies: ["BaseDirectories", "CCurl", "CFileSpace", "EventLoop", "PublicText"], swiftSettings: v5),
        .target(name: "PulseAudio", dependencies: ["CPulse", "EventLoop"], swiftSettings: v5),
        // SQLite databases (the library index, the listening history): connections, statements, migrations.
        .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: v5),
        // Music files' tags read without decoding: TagLib 1.13's C++ PropertyMap behind a small C interface.
        // CTagLib is built into libquaver-taglib.so (libtag and libstdc++ come with it), which CTagLibLoader loads
        // at the first tag read: no program links it.
        .target(name: "CTagLib", linkerSettings: [.linkedLibrary("tag")]),
        .target(name: "CTagLibLoader", dependencies: ["CLibraryLoader"]),
        .target(name: "TagLib", dependencies: ["CTagLibLoader"], swiftSettings: v5),

        // Text fit to show outside the daemon: credentials masked, length bounded. Pure Swift, no dependencies.
        .target(name: "PublicText", swiftSettings: v5),
        .target(name: "PlayerCore", swiftSettings: v5),
        // A WAV's chunk layout checked before GStreamer's wavparse reads it (it aborts on some). Pure Swift.
        .target(name: "RIFFLayout", swiftSettings: v5),
        // The control API: bus name, paths, interface names, LoopStatus spellings (and the core loop modes they
        // name), path → file:// URI. Pure Swift.
        .target(name: "ControlAPI", dependencies: ["PlayerCore"], swiftSettings: v5),
        // The release's version, the one place quaverd, quaver and the package (Makefile) take it from.
        .target(name: "QuaverVersion", swiftSettings: v5),
        // Pure text for the CLI: outside text made inert on a terminal, JSON, --format templates.
        .target(name: "TerminalText", swiftSettings: v5),
        // quaverd's swift-log handler: syslog priorities for journald, timestamps on a terminal.
        .target(name: "DaemonLog",
                dependencies: ["TerminalText", "PublicText", "EventLoop", .product(name: "Logging", package: "swift-log")],
                swiftSettings: v5),
        .target(name: "GStreamerEngine",
                dependencies: ["PlayerCore", "GStreamer", "EventLoop", "RemoteMedia", "PublicText", "RIFFLayout",
                               .product(name: "Logging", package: "swift-log")], swiftSettings: v5),
        .target(name: "MPRIS",
                dependencies: ["PlayerCore", "ControlAPI", "DBus", "EventLoop", "PublicText", "CoverArt", "Library", "PlaylistStore", "BaseDirectories",
                               "ListeningHistory", "Configuration", "Session", .product(name: "Logging", package: "swift-log")],
                swiftSettings: v5),

        // Adapters without C: files the daemon reads and writes (XDG folders, playlists, state, settings).
        .target(name: "BaseDirectories", swiftSettings: v5),
        .target(name: "Playlists", dependencies: ["ControlAPI"], swiftSettings: v5),
        // Cover images vetted before they are shown: format and pixel size from the header, files not followed.
        .target(name: "CoverArt", swiftSettings: v5),
        // The user's saved playlists: M3U8 files in $XDG_DATA_HOME/quaver/playlists, written atomically.
        .target(name: "PlaylistStore", dependencies: ["PlayerCore", "ControlAPI", "Playlists", "BaseDirectories"], swiftSettings: v5),
        .target(name: "StateStore", dependencies: ["BaseDirectories", "EventLoop"], swiftSettings: v5),
        .target(name: "Configuration",
                dependencies: ["BaseDirectories", "PublicText", "ControlAPI"],
                swiftSettings: v5),
        // The music library: the index of the music folders (SQLite), its scanner (TagLib), live updates, search.
        .target(name: "Library",
                dependencies: ["SQLite", "TagLib", "ControlAPI", "PublicText", "EventLoop", "BaseDirectories",
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: v5),
        // The listening history and ratings (history.db, SQLite): what counts as a listen is PlayerCore's ListenCounter.
        .target(name: "ListeningHistory",
                dependencies: ["PlayerCore", "SQLite", "BaseDirectories", "EventLoop", .product(name: "Logging", package: "swift-log")],
                swiftSettings: v5),
        // Listens sent to ListenBrainz (or a server speaking its API) from the history's waiting listens.
        .target(name: "Scrobbling",
                dependencies: ["ListeningHistory", "RemoteMedia", "QuaverVersion", "PublicText", "Configuration",
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: v5),
        // The session kept across restarts: the player's queue and settings in the state file.
        .target(name: "Session",
                dependencies: ["PlayerCore", "ControlAPI", "StateStore", "EventLoop", .product(name: "Logging", package: "swift-log")],
                swiftSettings: v5),
        .target(name: "DesktopEvents",
                dependencies: ["PlayerCore", "ControlAPI", "DBus", "EventLoop", "PulseAudio", "Configuration", "PublicText",
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: v5),
        // Track-change notifications on the desktop (org.freedesktop.Notifications).
        .target(name: "DesktopNotifications",
                dependencies: ["PlayerCore", "DBus", "EventLoop", "PublicText", .product(name: "Logging", package: "swift-log")],
                swiftSettings: v5),

        // quaverd as its clients see it: typed MPRIS and org.quaver.Quaver1 calls, properties and signals.
        .target(name: "QuaverClient", dependencies: ["ControlAPI", "DBus"], swiftSettings: v5),

        // The programs' code, one module each: Sources/programs holds their entry points.
        // The daemon's module keeps the name quaverd: its log lines say [quaverd], as they always did.
        .target(name: "quaverd",
                          dependencies: ["ControlAPI", "MPRIS", "GStreamerEngine", "RemoteMedia", "PlayerCore", "DBus", "EventLoop",
                                         "StateStore", "Configuration", "BaseDirectories", "DesktopEvents", "DesktopNotifications", "Session",
                                         "QuaverVersion", "DaemonLog", "Library", "PlaylistStore", "ListeningHistory", "Scrobbling", "PublicText",
                                         .product(name: "Logging", package: "swift-log")],
                          path: "Sources/quaverd", swiftSettings: v5),
        .target(name: "QuaverCLI",
                          dependencies: ["ControlAPI", "DBus", "EventLoop", "Playlists", "QuaverVersion", "TerminalText", "PublicText", "QuaverClient",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Sources/quaver", swiftSettings: v5),

        // Snapcast's stream plugin for Quaver: JSON-RPC on stdin/stdout to snapserver, D-Bus to quaverd.
        .target(name: "SnapcastPlugin", dependencies: ["ControlAPI", "DBus", "EventLoop", "CoverArt", "QuaverClient"],
                path: "Sources/quaver-snapcast-plugin", swiftSettings: v5),

        // The release ships one program, quaver, and links quaverd and quaver-snapcast-plugin to it: the name it
        // runs as chooses (one copy of the Swift runtime instead of three). The other two, alone, serve the tests.
        .executableTarget(name: "quaver", dependencies: ["QuaverCLI", "quaverd", "SnapcastPlugin"],
                          path: "Sources/programs/quaver", swiftSettings: v5),
        .executableTarget(name: "quaverd-alone", dependencies: ["quaverd"], path: "Sources/programs/quaverd", swiftSettings: v5),
        .executableTarget(name: "quaver-snapcast-plugin", dependencies: ["SnapcastPlugin"],
                          path: "Sources/programs/quaver-snapcast-plugin", swiftSettings: v5),

        // The benchmarks behind scripts/bench, outside the product's Sources/.
        .executableTarget(name: "quaver-bench",
                          dependencies: ["ControlAPI", "DBus", "GStreamerEngine", "RemoteMedia", "PlayerCore", "EventLoop", "StateStore", "TestRigs", "QuaverClient",
                                         "Library",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Benchmarks/quaver-bench", swiftSettings: v5),

        // The real programs tests and benchmarks run beside quaverd: private buses, sound servers, web servers,
        // desktops, snapserver, media fixtures.
        .target(name: "TestRigs", dependencies: ["EventLoop", "DBus"], path: "Tests/TestRigs",
                exclude: ["test_servers.py", "tag_files.py", "move_stream.py", "radio_storm.py"],
                swiftSettings: v5),
        // What only tests use (the fake engine, fake desktop services), with TestRigs.
        .target(name: "TestSupport", dependencies: ["TestRigs", "EventLoop", "PlayerCore", "DBus"], path: "Tests/TestSupport",
                swiftSettings: v5),
        .testTarget(name: "PublicTextTests", dependencies: ["PublicText"], swiftSettings: v5),
        .testTarget(name: "RIFFLayoutTests", dependencies: ["RIFFLayout"], swiftSettings: v5),
        // Reads docs/ARCHITECTURE.md and Package.swift: the map of modules held to the code.
        .testTarget(name: "ArchitectureTests", swiftSettings: v5),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"], swiftSettings: v5),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "TagLib", "SQLite", "EventLoop", "TestSupport"],
                    swiftSettings: v5),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop"], swiftSettings: v5),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "EventLoop", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "PlayerCoreTests", dependencies: ["PlayerCore", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "MPRISTests", dependencies: ["ControlAPI", "MPRIS", "PlayerCore", "DBus", "EventLoop", "TestSupport", "PublicText",
                                                 "CoverArt"],
                    swiftSettings: v5),
        .testTarget(name: "QuaverdTests", dependencies: ["ControlAPI", "DBus", "EventLoop", "TestSupport", "ListeningHistory", "SQLite", "QuaverClient", "StateStore"], swiftSettings: v5),
        .testTarget(name: "RemoteMediaTests", dependencies: ["RemoteMedia", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "GStreamerEngineTests",
                    dependencies: ["GStreamerEngine", "RemoteMedia", "GStreamer", "PlayerCore", "EventLoop", "TestSupport"],
                    swiftSettings: v5),
        .testTarget(name: "CLITests", dependencies: ["ControlAPI", "MPRIS", "PlayerCore", "DBus", "EventLoop", "TestSupport", "QuaverCLI"],
                    swiftSettings: v5),
        .testTarget(name: "TerminalTextTests", dependencies: ["TerminalText"], swiftSettings: v5),
        .testTarget(name: "DaemonLogTests",
                    dependencies: ["DaemonLog", .product(name: "Logging", package: "swift-log")], swiftSettings: v5),
        .testTarget(name: "BaseDirectoriesTests", dependencies: ["BaseDirectories"], swiftSettings: v5),
        .testTarget(name: "ControlAPITests", dependencies: ["ControlAPI"], swiftSettings: v5),
        .testTarget(name: "CoverArtTests", dependencies: ["CoverArt", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "PlaylistsTests", dependencies: ["Playlists", "ControlAPI", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "ListeningHistoryTests",
                    dependencies: ["ListeningHistory", "PlayerCore", "EventLoop", "SQLite", "TestSupport",
                                   .product(name: "Logging", package: "swift-log")], swiftSettings: v5),
        .testTarget(name: "ScrobblingTests",
                    dependencies: ["Scrobbling", "ListeningHistory", "TestSupport", .product(name: "Logging", package: "swift-log")],
                    swiftSettings: v5),
        .testTarget(name: "PlaylistStoreTests", dependencies: ["PlaylistStore", "PlayerCore", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "SessionTests", dependencies: ["Session", "StateStore", "PlayerCore", "EventLoop", "TestSupport", "ControlAPI",
                                                         .product(name: "Logging", package: "swift-log")],
                    swiftSettings: v5),
        .testTarget(name: "StateStoreTests", dependencies: ["StateStore", "EventLoop", "TestSupport"],
                    swiftSettings: v5),
        .testTarget(name: "ConfigurationTests", dependencies: ["Configuration", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "PulseAudioTests", dependencies: ["PulseAudio", "EventLoop", "TestSupport"], swiftSettings: v5),
        .testTarget(name: "DesktopNotificationsTests",
                    dependencies: ["DesktopNotifications", "PlayerCore", "DBus", "EventLoop", "TestSupport",
                                   .product(name: "Logging", package: "swift-log")],
                    swiftSettings: v5),
        .testTarget(name: "DesktopEventsTests",
                    dependencies: ["DesktopEvents", "PulseAudio", "GStreamerEngine", "PlayerCore", "DBus", "EventLoop", "TestSupport",
                                   .product(name: "Logging", package: "swift-log")],
                    swiftSettings: v5),
    ]
)

// Release builds carry the Swift runtime and FoundationEssentials inside each program (swiftc -static-stdlib, which
// must also compile against the static modules), and quaverd is linked position-dependent. Shared, the big
// Swift libraries cost the daemon ~6 MB of resident pages from start-up on: every library's relocations and
// symbol tables are read, and the kernel maps 64 KiB around each page touched; linked in, only what is used
// is there, and without PIE nothing is relocated at load. BENCHMARKS.md has the figures (peak RSS while
// playing). Debug builds, which the tests use, stay dynamic: they link faster.
// libstdc++ (which the Swift runtime and the TagLib shim need) is linked in too: link/static-libstdc++ holds a linker
// script that the linker finds first for -lstdc++ and that names the static archive. Shared, libstdc++ was
// 1.4 MB resident in the daemon from start-up on; linked in, only the parts used are there: 0.7 MB less at
// rest, 0.9 MB at the peak while playing (measured). Its symbols stay hidden, so a plugin that loads the
// shared one (soundtouch, modplug) gets its own: played through soundtouch's pitch element, measured too.
// Each function in a section of its own (-function-sections), and the programs linked by the toolchain's lld, which
// puts the functions link/quaverd.order lists (those start-up and playback run, scripts/link-order) next to each
// other: scattered through 12 MB of code, the kernel's 64 KiB fault-around kept 8.5 MB of it resident for 1.2 MB
// run; together, 5.1 MB (docs/reliability.md, "Memory at rest"). The compiler's nameless functions, which no list
// can name, are put together ahead of the code by link/private-functions.ld.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-static-stdlib", "-Xfrontend", "-function-sections"], .when(configuration: .release))]
    guard target.type == .executable else { continue }
    // libgcc's unwinder (which the static libstdc++ needs) linked in too, from libgcc_eh: shared, libgcc_s was 84 KiB
    // more resident from start-up on (docs/reliability.md, "Memory while playing").
    var flags = ["-static-stdlib", "-L\(Context.packageDirectory)/link/static-libstdc++", "-Xclang-linker", "-static-libgcc"]
    // swiftc's static-stdlib arguments export every symbol of the program's own code (-export-dynamic): 5 000
    // names, none of which anything looks up (the daemon's only dlsym is into libcurl). Their table is read at
    // load, and the dynamic linker searches it first for every symbol of every shared library: 0.3 MB more
    // resident at rest, 0.5 MB at the peak while playing (measured, 3 and 6 runs). The later option on the command
    // line wins.
    if ["quaverd-alone", "quaver"].contains(target.name) {
        flags += ["-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic", "-use-ld=lld",
                  "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/link/quaverd.order",
                  "-Xlinker", "--no-warn-symbol-ordering",
                  "-Xlinker", "--script=\(Context.packageDirectory)/link/private-functions.ld"]
    }
    target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(flags, .when(configuration: .release))]
}
