import FoundationEssentials
import Glibc

/// The folders `[library] folders` names, as absolute paths: `~/` is the home folder, and `$XDG_MUSIC_DIR`
/// the user's music folder as `xdg-user-dirs` records it in `$XDG_CONFIG_HOME/user-dirs.dirs`, else `~/Music`.
public enum MusicFolders {
    public static let placeholder = "$XDG_MUSIC_DIR"

    /// Whether `folder` is there now, as a folder (links followed): one that is not has nothing to scan, watch or find.
    public static func isThere(_ folder: String) -> Bool {
        var status = stat()
        return stat(folder, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The folders in order, without repeats; an entry that needs a home folder when there is none is left out.
    public static func resolve(_ configured: [String], environment: [String: String]) -> [String] {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        var folders: [String] = []
        for entry in configured {
            guard let folder = resolve(entry, home: home, environment: environment) else { continue }
            let normalised = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
            if !folders.contains(normalised) { folders.append(normalised) }
        }
        return folders
    }

    private static func resolve(_ entry: String, home: String?, environment: [String: String]) -> String? {
        if entry.hasPrefix(placeholder) {
            guard let music = musicFolder(home: home, environment: environment) else { return nil }
            return music + entry.dropFirst(placeholder.count)
        }
        if entry.hasPrefix("~/") { return home.map { $0 + entry.dropFirst(1) } }
        return entry.hasPrefix("/") ? entry : nil
    }

    /// `XDG_MUSIC_DIR` from `user-dirs.dirs` (a shell assignment: `XDG_MUSIC_DIR="$HOME/Music"`, where
    /// only `$HOME` is expanded, as xdg-user-dirs writes it), else `~/Music`.
    static func musicFolder(home: String?, environment: [String: String]) -> String? {
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? home.map { $0 + "/.config" }
        if let configHome, let text = try? String(contentsOfFile: configHome + "/user-dirs.dirs", encoding: .utf8),
           let value = assignedMusicFolder(in: text, home: home) {
            return value
        }
        return home.map { $0 + "/Music" }
    }

    static func assignedMusicFolder(in text: String, home: String?) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("XDG_MUSIC_DIR=") {
            var value = line.dropFirst("XDG_MUSIC_DIR=".count)
            guard value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 else { continue }
            value = value.dropFirst().dropLast()
            if value.hasPrefix("$HOME") {
                guard let home else { return nil }
                return home + value.dropFirst("$HOME".count)
            }
            if value.hasPrefix("/") { return String(value) }
        }
        return nil
    }
}
