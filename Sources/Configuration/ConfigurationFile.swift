import BaseDirectories
import FoundationEssentials
import PublicText

/// Why `config.toml` was refused. Quaver does not start on a bad file rather than guess what was meant.
public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    public let file: String
    /// `section.key` (or the section) at fault; `nil` for a syntax or read error.
    public let key: String?
    /// 1-based line of a syntax error.
    public let line: Int?
    public let message: String

    /// `config.toml: network.retries: expected an integer from 0 to 100, found 500`
    /// or `config.toml:3: TOML syntax error: …`.
    public var description: String {
        if let key { return "\(file): \(key): \(message)" }
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

extension Configuration {
    /// `config.toml` in Quaver's XDG config folder (`$XDG_CONFIG_HOME/quaver`, or `~/.config/quaver`).
    public static func standardURL(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        try BaseDirectory.config.quaverFolder(environment: environment).appendingPathComponent("config.toml")
    }

    /// The settings a daemon starts with: those of the file named by `--config` (`givenPath`), which must exist, or
    /// of the standard file, which may be missing (then all defaults).
    public static func load(givenPath: String?) throws -> Configuration {
        guard let givenPath else { return try load(from: standardURL()) }
        guard FileManager.default.fileExists(atPath: givenPath) else {
            throw ConfigurationError(file: givenPath, key: nil, line: nil, message: "no such settings file (given with --config)")
        }
        return try load(from: URL(fileURLWithPath: givenPath))
    }

    /// The settings in the file at `url`; the defaults if there is no such file.
    public static func load(from url: URL) throws(ConfigurationError) -> Configuration {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return Configuration()
        } catch {
            throw ConfigurationError(file: url.path, key: nil, line: nil,
                                     message: "cannot be read (\(error.fileErrorText))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(file: url.path, key: nil, line: nil, message: "is not UTF-8 text (TOML requires UTF-8)")
        }
        return try parse(text, file: url.path)
    }

    /// The settings in TOML `text`; `file` names it in errors. Unknown sections and keys are errors,
    /// so a typo cannot silently leave a setting at its default.
    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> Configuration {
        let table: TOMLTable
        do {
            table = try TOMLReader.table(from: text)
        } catch {
            throw ConfigurationError(file: file, key: nil, line: error.line, message: "TOML syntax error: \(error.message)")
        }
        var configuration = Configuration()
        for (sectionName, sectionValue) in table {
            try configuration.apply(section: sectionName, sectionValue, file: file)
        }
        return configuration
    }

    /// Every `section.key` Quaver reads, in the order of `config.example.toml`.
    public static var knownKeys: [String] { Setting.all.map(\.name) }

    private mutating func apply(section name: String, _ value: TOMLValue, file: String) throws(ConfigurationError) {
        let settings = Setting.all.filter { $0.section == name }
        guard !settings.isEmpty else {
            let sections = Setting.all.map(\.section).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
            throw ConfigurationError(file: file, key: name, line: nil,
                                     message: "unknown section; known sections are " + sections.map { "[\($0)]" }.joined(separator: ", "))
        }
        guard let section = value.table else {
            throw ConfigurationError(file: file, key: name, line: nil,
                                     message: "expected a section [\(name)], found \(describe(value))")
        }
        for (key, value) in section {
            guard let setting = settings.first(where: { $0.key == key }) else {
                throw ConfigurationError(file: file, key: "\(name).\(key)", line: nil,
                                         message: "unknown key; [\(name)] has " + settings.map(\.key).joined(separator: ", "))
            }
            if let expected = setting.apply(value, &self) {
                throw ConfigurationError(file: file, key: setting.name, line: nil,
                                         message: "expected \(expected), found \(describe(value))")
            }
        }
    }
}

/// A TOML value as the user wrote it, for error messages; a URL's login and tokens masked (a proxy's
/// password would otherwise be printed at start-up and logged).
private func describe(_ value: TOMLValue) -> String {
    switch value {
    case .string(let text): "\"\(PublicText.maskingCredentials(in: text))\""
    case .integer(let number): String(number)
    case .float(let number): "\(number)"
    case .bool(let flag): "\(flag)"
    case .array: "an array"
    case .table: "a table"
    }
}
