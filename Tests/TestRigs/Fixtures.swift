import Foundation
import Glibc

/// Media files generated once per test process with sox, flac, lame, oggenc and gst-launch, into a
/// temporary folder removed at exit. `Fixtures.shared()` makes them on first use (a few seconds).
public final class Fixtures {
    /// Tags written into every tagged file.
    public static let title = "Quaver Test Tone"
    public static let artist = "The Fixtures"
    public static let album = "Generated Sounds"
    public static let trackNumber = 7
    /// Length of the tagged files.
    public static let toneSeconds = 10
    /// Sample rate and channels of every generated file (16-bit PCM).
    public static let sampleRate = 44_100
    public static let channels = 2
    /// Frames in the first half of the gapless sweep: deliberately not a round number of codec blocks.
    public static let firstHalfFrames = 101_431

    public let directory: URL
    /// The embedded cover, a 4×4 PNG; its bytes are what GST_TAG_IMAGE must give back.
    public var cover: URL { file("cover.png") }
    /// 10 s of a 440 Hz tone with title, artist, album and track number (WAV: no track number); FLAC and MP3 (with a LAME header) also embed `cover`.
    public var flac: URL { file("tagged.flac") }
    public var vorbis: URL { file("tagged.ogg") }
    public var mp3: URL { file("tagged.mp3") }
    public var wav: URL { file("tagged.wav") }
    /// A 4 s sine sweep as one WAV, and the same split in two at `firstHalfFrames`, as WAV and FLAC.
    public var sweep: URL { file("sweep.wav") }
    public var sweepHalvesWAV: (URL, URL) { (file("sweep-1.wav"), file("sweep-2.wav")) }
    public var sweepHalvesFLAC: (URL, URL) { (file("sweep-1.flac"), file("sweep-2.flac")) }
    /// Files that must fail: the start of a FLAC, random bytes named .mp3, a directory, a path that
    /// does not exist, a text file named .xyz, a PNG image.
    public var truncated: URL { file("truncated.flac") }
    public var randomBytes: URL { file("random.mp3") }
    public var folder: URL { file("folder.flac") }
    public var missing: URL { file("does-not-exist.flac") }
    public var text: URL { file("notes.xyz") }
    public var image: URL { file("picture.png") }
    /// A Matroska file with one VP8 video track and no frame: nothing in it is audio, and nothing in it ever
    /// reaches a sink, so playbin prerolls it and then neither fails nor ends it by itself. Not in `badFiles`.
    public var videoWithoutFrames: URL { file("no-frames.mkv") }

    public var coverBytes: [UInt8] { [UInt8](Self.coverPNG) }
    public var badFiles: [URL] { [truncated, randomBytes, folder, missing, text, image] }

    private static var made: Result<Fixtures, Error>?
    private static let lock = NSLock()

    /// The fixtures of this test process, generated on the first call.
    public static func shared() throws -> Fixtures {
        lock.lock()
        defer { lock.unlock() }
        if made == nil { made = Result { try Fixtures() } }
        return try made!.get()
    }

    private init() throws {
        directory = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("quaver-fixtures.\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fixturesToRemoveAtExit = directory.path
        atexit { if let path = fixturesToRemoveAtExit { try? FileManager.default.removeItem(atPath: path) } }
        try makeTaggedFiles()
        try makeSweeps()
        try makeBadFiles()
    }

    private func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    private func makeTaggedFiles() throws {
        try Self.coverPNG.write(to: cover)
        let tone = file("tone.wav")
        try sox(["-n", tone.path, "synth", "\(Self.toneSeconds)", "sine", "440", "vol", "0.5"])
        try Self.run("flac", ["-s", "-f", "--picture=\(cover.path)", "-T", "TITLE=\(Self.title)",
                              "-T", "ARTIST=\(Self.artist)", "-T", "ALBUM=\(Self.album)",
                              "-T", "TRACKNUMBER=\(Self.trackNumber)", "-o", flac.path, tone.path])
        try Self.run("lame", ["--silent", "-b", "128", "--tt", Self.title, "--ta", Self.artist, "--tl", Self.album,
                              "--tn", "\(Self.trackNumber)", "--ti", cover.path, tone.path, mp3.path])
        try Self.run("oggenc", ["-Q", "-t", Self.title, "-a", Self.artist, "-l", Self.album,
                                "-N", "\(Self.trackNumber)", "-o", vorbis.path, tone.path])
        // wavenc writes title, artist and album as RIFF INFO (INAM, IART, IPRD), not the track number.
        let tags = "title=\\\"\(Self.title)\\\",artist=\\\"\(Self.artist)\\\",album=\\\"\(Self.album)\\\""
        try Self.run("gst-launch-1.0", ["-q", "filesrc", "location=\(tone.path)", "!", "wavparse", "!",
                                        "taginject", "tags=\"\(tags)\"", "!", "wavenc", "!",
                                        "filesink", "location=\(wav.path)"])
    }

    private func makeSweeps() throws {
        try sox(["-n", sweep.path, "synth", "4", "sine", "200-3000", "vol", "0.6"])
        let halves = sweepHalvesWAV
        try sox([sweep.path, halves.0.path, "trim", "0s", "\(Self.firstHalfFrames)s"])
        try sox([sweep.path, halves.1.path, "trim", "\(Self.firstHalfFrames)s"])
        for (source, target) in [(halves.0, sweepHalvesFLAC.0), (halves.1, sweepHalvesFLAC.1)] {
            try Self.run("flac", ["-s", "-f", "-o", target.path, source.path])
        }
    }

    private func makeBadFiles() throws {
        try Data(try Data(contentsOf: flac).prefix(120)).write(to: truncated)
        var generator = SeededGenerator(seed: 42)
        try Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: randomBytes)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(String(repeating: "This is not music.\n", count: 200).utf8).write(to: text)
        try Self.coverPNG.write(to: image)
        try Self.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=0", "!", "video/x-raw,width=64,height=48", "!",
                                        "vp8enc", "!", "matroskamux", "!", "filesink", "location=\(videoWithoutFrames.path)"])
    }

    private func sox(_ arguments: [String]) throws {
        try Self.run("sox", ["-q"] + arguments.prefix(1) + ["-r", "\(Self.sampleRate)", "-c", "\(Self.channels)",
                                                             "-b", "16"] + arguments.dropFirst())
    }

    /// A FLAC tone of `seconds` tagged with `title`, `artist` and `album`, embedding the fixtures' cover
    /// (`cover`, the PNG whose bytes `coverBytes` gives): a file named unlike its title, so a client showing
    /// the file name instead of the tags is caught.
    public func taggedFLAC(at url: URL, title: String, artist: String, album: String, seconds: Double) throws {
        let wav = url.deletingPathExtension().appendingPathExtension("source.wav")
        try sox(["-n", wav.path, "synth", "\(seconds)", "sine", "440", "vol", "0.3"])
        try Self.run("flac", ["-s", "-f", "--picture=\(cover.path)", "-T", "TITLE=\(title)", "-T", "ARTIST=\(artist)",
                              "-T", "ALBUM=\(album)", "-o", url.path, wav.path])
        try FileManager.default.removeItem(at: wav)
    }

    /// Runs a generator tool; a missing tool or a failure names itself and what `scripts/deps` installs.
    public static func run(_ tool: String, _ arguments: [String]) throws {
        let result = try ChildProcess.run(tool, arguments, timeout: 60)
        guard result.status == 0 else {
            throw TestHarnessError("\(tool) \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
    }

    /// A 4×4 orange PNG, made once with zlib and kept as bytes so the test knows them exactly.
    static let coverPNG = Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP438AARwzEcQB+ohfxXaFgBQAAAABJRU5ErkJggg==")!
}

private var fixturesToRemoveAtExit: String?

/// A deterministic generator (SplitMix64), so "random" fixtures are the same on every run.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
