import Foundation

/// Small tagged music files in every format the library reads (FLAC, Vorbis, Opus, MP3, M4A, WAV, WavPack),
/// for the library's tests: a 1 s tone encoded once per format and process (sox, flac, oggenc, GStreamer's
/// opusenc and mp4mux, lame, wavpack), copied, then tagged with mutagen (`tag_files.py`, python3-mutagen).
public enum TaggedTree {
    public static let formats = ["flac", "ogg", "opus", "mp3", "m4a", "wav", "wv"]

    /// One file to make: where (relative to the tree), and its tags by TagLib's keys (`TITLE`, `ARTIST`,
    /// `ALBUMARTIST`, `TRACKNUMBER`, `DATE`, `MUSICBRAINZ_TRACKID`, …). The format is the name's extension.
    public struct File {
        public let path: String
        public let tags: [String: [String]]
        public init(_ path: String, _ tags: [String: String]) {
            self.path = path
            self.tags = tags.mapValues { [$0] }
        }
        public init(_ path: String, values: [String: [String]]) {
            self.path = path
            self.tags = values
        }
    }

    /// Writes `files` under `root`, making folders as needed; each is a tone of `seconds`.
    public static func write(_ files: [File], under root: URL, seconds: Double = 1) throws {
        var list: [[String: Any]] = []
        for file in files {
            let target = root.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: try template(target.pathExtension.lowercased(), seconds: seconds), to: target)
            list.append(["path": target.path, "tags": file.tags])
        }
        let listFile = try TemporaryDirectory(prefix: "tag-list")
        let json = listFile.url.appendingPathComponent("list.json")
        try JSONSerialization.data(withJSONObject: list).write(to: json)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("tag_files.py")
        let result = try ChildProcess.run("/usr/bin/python3", [script.path, json.path], timeout: 120 + Double(files.count) / 100)
        guard result.status == 0 else { throw TestHarnessError("tag_files.py failed: \(result.stderr)") }
    }

    private static let lock = NSRecursiveLock()  // the M4A template is made from the MP3 one
    nonisolated(unsafe) private static var templates: [String: URL] = [:]
    nonisolated(unsafe) private static var folder: TemporaryDirectory?

    /// The untagged file of `format`, a tone of `seconds`, made on first use.
    public static func template(_ format: String, seconds: Double = 1) throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        let key = "\(seconds)s.\(format)"
        if let made = templates[key] { return made }
        let directory = try folder ?? TemporaryDirectory(prefix: "tagged-templates")
        if folder == nil {
            // A static is never released, so its folder goes at exit (as the Fixtures' does).
            templatesToRemoveAtExit = directory.path
            atexit { if let path = templatesToRemoveAtExit { try? FileManager.default.removeItem(atPath: path) } }
        }
        folder = directory
        let wav = directory.url.appendingPathComponent("source-\(seconds)s.wav")
        if !FileManager.default.fileExists(atPath: wav.path) {
            try Fixtures.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "\(seconds)", "sine",
                                     "440", "vol", "0.3"])
        }
        let target = directory.url.appendingPathComponent("tone-\(key)")
        try encode(wav, to: target, format, seconds: seconds)
        templates[key] = target
        return target
    }

    private static func encode(_ wav: URL, to target: URL, _ format: String, seconds: Double) throws {
        switch format {
        case "wav": try FileManager.default.copyItem(at: wav, to: target)
        case "flac": try Fixtures.run("flac", ["-s", "-f", "-o", target.path, wav.path])
        case "ogg": try Fixtures.run("oggenc", ["-Q", "-o", target.path, wav.path])
        case "mp3": try Fixtures.run("lame", ["--silent", wav.path, target.path])
        case "wv": try Fixtures.run("wavpack", ["-q", "-y", wav.path, "-o", target.path])
        case "opus":
            try Fixtures.run("gst-launch-1.0", ["-q", "filesrc", "location=\(wav.path)", "!", "wavparse", "!", "audioconvert",
                                                "!", "audioresample", "!", "opusenc", "!", "oggmux", "!",
                                                "filesink", "location=\(target.path)"])
        case "m4a":
            // MP3 audio in an MP4 file: no AAC encoder is packaged here, and the tags are what is tested.
            let mp3 = try template("mp3", seconds: seconds)
            try Fixtures.run("gst-launch-1.0", ["-q", "filesrc", "location=\(mp3.path)", "!", "mpegaudioparse", "!",
                                                "mp4mux", "!", "filesink", "location=\(target.path)"])
        default: throw TestHarnessError("no template for .\(format)")
        }
    }
}

nonisolated(unsafe) private var templatesToRemoveAtExit: String?
