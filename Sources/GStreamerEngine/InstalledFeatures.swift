import FoundationEssentials
import GStreamer

/// What the installed GStreamer offers that the daemon tells before anything plays: the media types its plugins
/// decode (MPRIS `SupportedMimeTypes`, read by every shell's `GetAll` of the root interface at start-up) and whether
/// the equaliser's plugin is there (the `Equalizer` members exist only then).
///
/// Both come from the plugin registry, and reading it takes `gst_init` (3.5 MB resident in quaverd) in a daemon
/// that has loaded nothing. So the registry's answers are kept in a file of the cache folder each time the engine
/// builds its first pipeline (GStreamer is up for it anyway), and read from there while GStreamer is not up; the
/// registry answers when GStreamer is up, when nothing was kept, or when what was kept is from another GStreamer
/// version. What is kept lags behind plugins installed since until a track has played (MPRIS asks once per run).
///
/// Loop thread only.
public final class InstalledFeatures {
    private let file: String?
    private var answers: Answers?

    struct Answers: Equatable {
        var mediaTypes: [String]
        var equalizer: Bool
    }

    /// `file`: where the answers are kept between runs; nil keeps nothing.
    init(keptIn file: String?) {
        self.file = file
    }

    /// MIME types the installed GStreamer can decode: sink caps of audio decoders and of demuxers.
    public var supportedMimeTypes: [String] { current.mediaTypes }

    /// Whether GStreamer's equalizer plugin is installed: without it, the filter has no equaliser.
    public var hasEqualizer: Bool { current.equalizer }

    /// GStreamer is up (the engine built a pipeline): the registry's answers are read and kept for the next run.
    func registryIsUp() {
        let fresh = Self.registryAnswers()
        if fresh != answers { keep(fresh) }
        answers = fresh
    }

    private var current: Answers {
        if let answers { return answers }
        let read = GStreamer.isInitialized ? nil : keptAnswers()
        let found = read ?? Self.registryAnswers()
        answers = found
        if read == nil { keep(found) }
        return found
    }

    private static func registryAnswers() -> Answers {
        Answers(mediaTypes: GStreamerEngine.supportedMimeTypes(), equalizer: EqualizerStage.fragment != nil)
    }

    // MARK: The kept file: "gstreamer <version>", "equalizer yes|no", then one media type a line

    private func keptAnswers() -> Answers? {
        guard let file, let data = FileManager.default.contents(atPath: file), data.count <= Self.sizeLimit else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count >= 2, lines[0] == "gstreamer \(GStreamer.version)",
              let equalizer = ["equalizer no": false, "equalizer yes": true][lines[1]] else { return nil }
        let types = lines.dropFirst(2)
        guard types.allSatisfy(Self.isMediaType) else { return nil }
        return Answers(mediaTypes: Array(types), equalizer: equalizer)
    }

    private func keep(_ answers: Answers) {
        guard let file else { return }
        let text = (["gstreamer \(GStreamer.version)", "equalizer \(answers.equalizer ? "yes" : "no")"] + answers.mediaTypes)
            .joined(separator: "\n") + "\n"
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            GStreamerEngine.log.debug("what GStreamer offers is not kept in \(file): \(error)")
        }
    }

    /// A file of the user's cache is read as one anyone could have written: bounded, every line a media type.
    private static let sizeLimit = 64 << 10

    private static func isMediaType(_ line: String) -> Bool {
        line.utf8.count <= 255 && line.contains("/") && line.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || byte == 0x2F || byte == 0x2D || byte == 0x2E || byte == 0x2B || byte == 0x5F
        }
    }
}
