import EventLoop
import GStreamer
import PlayerCore

/// Everything the engine's loop side knows, as one value. Only GStreamerEngine.swift changes it (`state` is
/// `private(set)` there): `apply` and what it calls, and `position`, which keeps the last good position. The
/// other files read it and compute decisions.
///
///   idle ──load──▶ loading ──first ASYNC_DONE──▶ prerolled (seeks: one in flight, the newest waiting)
///                     ▲                            │ output error after the output worked
///                     │ a stuck playbin           ▼
///                     └────────────────────── recovering ──attempt's ASYNC_DONE──▶ prerolled
///   any ──stop, failure──▶ idle
struct EngineState {
    var phase = Phase.idle
    /// The item loaded and what playbin was given for it; empty when idle.
    var loaded = Loaded()
    var wantsPlaying = false
    /// The volume asked for, given again to a new pipeline.
    var volume = 1.0
    /// The equaliser's gains asked for, given again to a new pipeline.
    var equalizer = EqualizerGains()
    /// The sink the pipelines play into: chosen when the first load builds one, or why none can be built.
    var output = OutputChoice.unchosen
    /// The last good position: a query can fail once right after a flushing seek (docs/platform.md).
    var lastPosition: Duration?
    /// Seconds two tracks overlap at a joint not within an album (0: every joint gapless).
    var crossfadeSeconds = 0.0
}

enum Phase {
    /// Nothing loaded.
    case idle
    /// A load (or a restart in a new pipeline) waits for its first ASYNC_DONE.
    case loading(Start)
    /// Prerolled, playing or paused.
    case prerolled(Seeks)
    /// The sound output is lost: retried every second until an attempt prerolls.
    case recovering(Recovery)
}

/// The sink description pipelines are built with. The first load chooses it (`SoundOutput`: a sink that cannot open
/// its output gives way to a silent one) and builds the first pipeline; a description that GStreamer cannot build
/// refuses every load from then on, with the same reason, logged once.
enum OutputChoice {
    case unchosen
    case chosen(String)
    case refused(EngineError)

    var sink: String? {
        if case .chosen(let sink) = self { return sink }
        return nil
    }
}

/// Where a load, a restart or a reconnection starts, and what its first ASYNC_DONE does.
struct Start {
    var position: Duration
    /// A seek the core asked for arrived meanwhile: it is reported once the start seek lands.
    var reportSeek = false
    /// The rate changed meanwhile, possibly after the stream's segment went by.
    var applyRate = false
    /// The loaded item starts again (in a new pipeline): its STREAM_START is not a new track.
    var restartsCurrent = false
}

/// The sound output is gone: where playback resumes, and the timer of the next step.
struct Recovery {
    var resume: Start
    /// An attempt (NULL → PAUSED) is under way: its ASYNC_DONE ends the outage; `timer` gives it up.
    /// Otherwise `timer` starts the next attempt.
    var attempting: Bool
    var timer: LoopSource?
}

/// What is loaded: set by a load, kept across restarts and recoveries, dropped by a stop or a failure.
struct Loaded {
    /// The item whose stream has started.
    var current: EngineItem?
    /// What playbin was given for the loaded item: its URI, or `appsrc://` for a cached remote file.
    var playbinURI: String?
    /// The cached remote file of the item playing (or loading).
    var remote: (file: RemoteFile, item: EngineItem)?
    /// The loaded item is a live stream (radio): no length, not seekable, "Artist - Title" titles.
    var liveStream = false
    /// Whether the output has accepted a stream since the last load: a later output error is a lost
    /// sound server (recovered), an earlier one means there is none (reported as a failure).
    var outputWorked = false
    var pluginMissing: String?
    /// What the next file's check read of the loaded item (`NextItemCheck`), for its prompt tag read.
    var checkedRead: (item: EngineItem, read: PromptReader.Result)?
    /// A crossfade into the next item, armed or under way (Crossfading.swift).
    var crossfade: Crossfade?
    /// The next item a crossfade could not be made into (its stream's format): not tried again.
    var crossfadeRefused: TrackID?
    /// Paused while it played: the output's stream is corked with up to a second of sound in it, and a Play
    /// starts a local file again from where it is heard with a flushing seek (docs/platform.md, "Resuming after
    /// a pause").
    var pausedWhilePlaying = false
}

/// Every input the engine's loop side takes, through `GStreamerEngine.apply`.
enum EngineInput {
    case load(EngineItem, at: Duration, playing: Bool)
    case prepareNext(EngineItem?)
    case update(EngineItem)
    case play
    /// Play on a new output stream connected to this sink of the sound server (nil: the server's choice).
    case playOnNewOutput(device: String?)
    case pause
    case stop
    case seek(Duration, exact: Bool)
    case rate(Double)
    case volume(Double)
    case equalizer(EqualizerGains)
    case bus(Message)
    case remoteFile(RemoteFileEvent, RemoteFile)
    /// The recovery's timer: the next attempt at the sound output.
    case retryOutput
    /// The output's error, or an attempt that never answered.
    case outputLost(String)
    /// A call on playbin did not come back: the loaded item starts again in a new pipeline.
    case stuck(String)
    case crossfade(seconds: Double)
    /// The crossfade's timer: whether the joint ahead is to overlap now.
    case crossfadeTick
    /// The first mixed buffer of the overlap whose incoming track is this passed the joint, and it is heard.
    case overlapStarted(ObjectIdentifier)
    case overlapHeard(ObjectIdentifier)
}

extension Phase {
    /// The start a first ASYNC_DONE will act on: a load's, or a recovery attempt's.
    var pendingStart: Start? {
        switch self {
        case .loading(let start): start
        case .recovering(let recovery) where recovery.attempting: recovery.resume
        default: nil
        }
    }

    /// Where the loaded item starts again, if it had to now: the start asked for, the newest seek, or `known`
    /// (where playback is). The one place this is worked out.
    func resumption(at known: Duration?) -> Start {
        switch self {
        case .loading(let start): return start
        case .recovering(let recovery): return recovery.resume
        case .prerolled(let seeks):
            let newest = seeks.queued ?? seeks.inFlight
            return Start(position: newest?.target ?? known ?? .zero, reportSeek: newest?.report ?? false)
        case .idle: return Start(position: known ?? .zero)
        }
    }

    /// A STREAM_START of the current item is the same track starting again, not a new one.
    var restartsCurrent: Bool {
        switch self {
        case .recovering: true
        case .loading(let start): start.restartsCurrent
        default: false
        }
    }

    /// The output is gone and no attempt is under way: the timer starts the next one.
    var isWaitingForOutput: Bool {
        if case .recovering(let recovery) = self { return !recovery.attempting }
        return false
    }

    var isRecovering: Bool {
        if case .recovering = self { return true }
        return false
    }
}
