// BaseDirectories: the XDG folders Quaver reads and writes (config, state, cache). An adapter without C:
// imports Foundation only.
import Foundation

/// The XDG base directories Quaver uses, resolved as the XDG Base Directory Specification says:
/// `$XDG_CONFIG_HOME` (or `~/.config`), `$XDG_STATE_HOME` (or `~/.local/state`), `$XDG_CACHE_HOME` (or `~/.cache`),
/// `$XDG_DATA_HOME` (or `~/.local/share`, where the user's saved playlists live).
/// The spec says a relative value "is invalid and should be ignored", so only absolute values count.
public enum BaseDirectory: Sendable {
    case config
    case state
    case cache
    case data

    /// Quaver's own folder inside this base directory, e.g. `~/.local/state/quaver`.
    /// Throws when neither the XDG variable nor `HOME` gives an absolute path.
    public func quaverFolder(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        try url(environment: environment).appendingPathComponent("quaver", isDirectory: true)
    }

    /// The base directory itself.
    public func url(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw BaseDirectoryError(description: "neither \(variable) nor HOME is set to an absolute path")
        }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback, isDirectory: true)
    }

    private var variable: String {
        switch self {
        case .config: return "XDG_CONFIG_HOME"
        case .state: return "XDG_STATE_HOME"
        case .cache: return "XDG_CACHE_HOME"
        case .data: return "XDG_DATA_HOME"
        }
    }

    private var fallback: String {
        switch self {
        case .config: return ".config"
        case .state: return ".local/state"
        case .cache: return ".cache"
        case .data: return ".local/share"
        }
    }
}

public struct BaseDirectoryError: Error, Equatable, CustomStringConvertible {
    public let description: String
}
