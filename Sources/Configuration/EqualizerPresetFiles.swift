import BaseDirectories
import ControlAPI
import FoundationEssentials
import Glibc
import PublicText

/// The user's own equaliser presets: one TOML file each in `$XDG_CONFIG_HOME/quaver/eq/`, named after the
/// preset (`warm.toml` is the preset `warm`), read with the settings' TOML reader:
///
///     preamp = -3
///     bands = [4, 3, 2, 0, 0, 0, 0, -1, -2, -3]   # 31 Hz … 16 kHz, dB
///
/// The folder is anyone's to write into, so what is read is bounded: regular files only (never through a
/// link), at most `maximumFileCount` of them and `maximumFileSize` bytes each. A file that cannot be used is
/// left out and named in `problems`, one line each; the daemon logs them and goes on.
public struct EqualizerPresetFiles {
    public static let maximumFileCount = 100
    public static let maximumFileSize = 16 << 10

    /// Presets by name, in name order.
    public private(set) var presets: [(name: String, setting: EqualizerSetting)] = []
    /// One line per file left out, naming it and why.
    public private(set) var problems: [String] = []

    /// `$XDG_CONFIG_HOME/quaver/eq`.
    public static func standardFolder(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        try BaseDirectory.config.quaverFolder(environment: environment).appendingPathComponent("eq", isDirectory: true)
    }

    /// Reads every `*.toml` in `folder`; a missing folder has no presets.
    public init(folder: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let files = names.filter { $0.hasSuffix(".toml") }.sorted()
        if files.count > Self.maximumFileCount {
            problems.append("\(folder.path): \(files.count) preset files; only the first \(Self.maximumFileCount) are read")
        }
        for file in files.prefix(Self.maximumFileCount) {
            let url = folder.appendingPathComponent(file)
            do {
                presets.append((String(file.dropLast(".toml".count)), try Self.read(url)))
            } catch {
                problems.append("\(PublicText.from(url.path)): \(error)")
            }
        }
    }

    struct Refusal: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// One preset file's setting, or why it cannot be used.
    static func read(_ url: URL) throws -> EqualizerSetting {
        let name = String(url.lastPathComponent.dropLast(".toml".count))
        guard EqualizerPresets.isValidName(name), !EqualizerPresets.shipped.contains(where: { $0.name == name }) else {
            throw Refusal("not a preset name: use 1 to \(EqualizerPresets.longestName) of a-z, 0-9 and -, and no shipped preset's name")
        }
        return try setting(in: try text(of: url), file: url.lastPathComponent)
    }

    /// The file's text, if it is a regular file (not followed through a link) of at most `maximumFileSize` bytes.
    private static func text(of url: URL) throws -> String {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { throw Refusal("cannot be read (errno \(errno))") }  // a link is a link
        guard status.st_mode & S_IFMT == S_IFREG else { throw Refusal("not a regular file") }
        guard status.st_size <= maximumFileSize else { throw Refusal("larger than \(maximumFileSize) bytes") }
        let data = try Data(contentsOf: url)
        guard data.count <= maximumFileSize, let text = String(data: data, encoding: .utf8) else {
            throw Refusal("not UTF-8 text of at most \(maximumFileSize) bytes")
        }
        return text
    }

    /// `preamp` (optional, 0 when left out) and `bands` (ten numbers); any other key is refused, as in config.toml.
    static func setting(in text: String, file: String) throws -> EqualizerSetting {
        let table: TOMLTable
        do { table = try TOMLReader.table(from: text) } catch { throw Refusal("line \(error.line): TOML syntax error: \(error.message)") }
        if let unknown = table.keys.first(where: { $0 != "preamp" && $0 != "bands" }) { throw Refusal("unknown key \(unknown)") }
        let count = EqualizerSetting.bandNames.count
        guard let bands = table["bands"]?.array?.map(\.number), bands.count == count, bands.allSatisfy({ $0 != nil }) else {
            throw Refusal("bands must be a list of \(count) numbers (dB), one per band from 31 Hz to 16 kHz")
        }
        let preAmp = table["preamp"].map(\.number) ?? 0
        guard let preAmp else { throw Refusal("preamp must be a number (dB)") }
        do { return try EqualizerSetting(values: [preAmp] + bands.compactMap { $0 }) } catch { throw Refusal(error.description) }
    }
}

extension TOMLValue {
    /// An integer or a float.
    fileprivate var number: Double? { double ?? int.map(Double.init) }
}

/// The user's preset folder as the daemon reads it: asked at every listing (a `GetAll` includes it), it reads the
/// files again only when one of them was added, removed or changed (its name, size or modification time: an
/// `lstat` each, microseconds), and tells each problem once.
public final class EqualizerPresetFolder {
    private let url: URL
    private var stamp: [String]?
    private var presets: [(name: String, setting: EqualizerSetting)] = []
    private var told: Set<String> = []

    public init(url: URL) { self.url = url }

    /// The presets; `report` hears each file left out, the first time it is seen.
    public func presets(report: (String) -> Void) -> [(name: String, setting: EqualizerSetting)] {
        let now = currentStamp()
        guard now != stamp else { return presets }
        stamp = now
        let files = EqualizerPresetFiles(folder: url)
        for problem in files.problems where told.insert(problem).inserted { report(problem) }
        presets = files.presets
        return presets
    }

    /// Each preset file's name, size and modification time, as far as `EqualizerPresetFiles` would read them.
    private func currentStamp() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(".toml") }.sorted().prefix(EqualizerPresetFiles.maximumFileCount + 1).map { name in
            var status = stat()
            guard lstat(url.appendingPathComponent(name).path, &status) == 0 else { return name }
            return "\(name) \(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
        }
    }
}
