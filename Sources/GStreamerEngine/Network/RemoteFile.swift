import EventLoop
import FoundationEssentials
import GStreamer
import PlayerCore
import RemoteMedia
import RIFFLayout
import Synchronization

/// What a remote file tells the engine; sent from its download thread (the engine posts it to the loop).
enum RemoteFileEvent: Equatable {
    /// The length is known and bytes are coming: play `appsrc://` and `attach` the source.
    case ready(size: UInt64)
    /// Not cacheable (a stream or playlist): let playbin's own source play it.
    case live
    case buffering(Int)
    /// Every byte is on disk: the next item's download may begin.
    case complete
    /// More bytes are on disk (`figures`), a few times a second at most.
    case progress
    case failed(EngineError.Kind, String)
}

/// A cached remote file as playbin reads it: a RemoteMedia download served to an `appsrc` in random-access
/// mode (`appsrc://` + `source-setup`). It is ready only once its WAV layout is checked (RIFFLayout): a
/// file that would make wavparse abort the daemon fails instead (docs/platform.md, "wavparse aborts").
final class RemoteFile {
    private let download: RemoteDownload
    /// Set once, on the WAV check's thread; read by the loop and at about-to-finish (`canServe`).
    private let layoutChecked = Atomic(false)

    init(url: String, cache: MediaCache, options: DownloadOptions, report: @escaping (RemoteFile, RemoteFileEvent) -> Void) {
        var owner: (() -> RemoteFile?) = { nil }
        download = RemoteDownload(url: url, cache: cache, options: options) { _, event in
            guard let file = owner() else { return }
            if case .ready(let size) = event {
                file.checkLayout(size: size, report: report)
            } else {
                report(file, RemoteFileEvent(event))
            }
        }
        owner = { [weak self] in self }
    }

    static func isCacheable(_ uri: String) -> Bool { RemoteDownload.isCacheable(uri) }

    func start() { download.start() }
    func close() { download.close() }
    var canServe: Bool { layoutChecked.load(ordering: .acquiring) && download.canServe }
    var isComplete: Bool { download.isComplete }
    var figures: DownloadFigures { download.figures }
    func setDuration(_ duration: Duration) { download.setDuration(duration) }

    /// Called from playbin's `source-setup` with the `appsrc` made for `appsrc://`.
    func attach(_ appSource: AppSource) {
        download.attach(appSource) { [download] length in
            appSource.configureRandomAccess(size: length)
            appSource.setCallbacks(AppSourceHandler(
                needData: { [weak download] length in download?.needData(length) },
                seekData: { [weak download] offset in download?.seekData(offset) ?? false }))
        }
    }

    /// Walks the chunk headers on a thread of its own (reading them may wait for the network), then reports
    /// `ready`, or `failed` for a WAV that wavparse cannot read without aborting.
    private func checkLayout(size: UInt64, report: @escaping (RemoteFile, RemoteFileEvent) -> Void) {
        NamedThread.start("quaver-wav-check") { [self] in
            let reader = ChunkHeaderReader(download)
            download.attach(reader) { _ in }
            if let hazard = WAVChunkCheck.hazard(length: size, read: { reader.read($0, $1, inOrder: $2) }) {
                report(self, .failed(WAVGuard.error(hazard).kind, hazard.description))
                return
            }
            // A read cut short by a failure or `close`: the download reports that itself.
            guard download.canServe else { return }
            layoutChecked.store(true, ordering: .releasing)
            report(self, .ready(size: size))
        }
    }
}

extension AppSource: ByteSink {}

private extension RemoteFileEvent {
    init(_ event: RemoteDownloadEvent) {
        switch event {
        case .ready(let size): self = .ready(size: size)
        case .live: self = .live
        case .buffering(let percent): self = .buffering(percent)
        case .complete: self = .complete
        case .progress: self = .progress
        case .failed(let kind, let text): self = .failed(EngineError.Kind(kind), text)
        }
    }
}

private extension EngineError.Kind {
    init(_ kind: RemoteFailureKind) {
        switch kind {
        case .network: self = .network
        case .notFound: self = .notFound
        case .unreadable: self = .unreadable
        case .other: self = .other
        }
    }
}
