import EventLoop
import GStreamer
import PlayerCore

/// Everything GStreamer's streaming threads touch, behind one lock: the one place the loop shares state with
/// them. Nothing else the engine owns is touched off the loop (docs/ARCHITECTURE.md, "Threads of the engine").
///
///   items handed over     the prepared next item and the items handed to playbin (Handover.swift)
///   the switch            a switch to the next item under way, the way down to NULL, seeks pending (GroupSwitch.swift)
///   the next file's check the newest item checked and the checks under way (NextItemCheck.swift)
///   the remote slot       the file the current `appsrc://` serves (`source-setup`)
///   the rate              what the rate probe gives every new stream's segment
///   ReplayGain            `rgvolume` for "auto", and the tags told it for the stream passing (ReplayGain.swift)
///   the crossfade joint   the overlap armed, and how far it has been mixed (CrossfadeJoint.swift)
///
/// Holders of the lock never call GStreamer or a remote file, nor wait for the loop: each section copies or
/// changes values and returns; the only wait on the lock's condition is the switch's (0.5 s at most, for the
/// next file's check) and the loop's before NULL (2 s at most, for a switch to end). The switch and
/// ReplayGain belong to one playbin: each pipeline gets a generation, and calls from a playbin given up
/// (whose streaming thread may come back at any time) change nothing.
final class StreamingSide: @unchecked Sendable {
    struct Shared {
        var handover = HandoverQueue()
        var groupSwitch = SwitchState()
        var checks = CheckState()
        var servedFile: RemoteFile?
        var rate = 1.0
        var albumVolume: Element?
        var replayGainTags = ReplayGainTags()
        var joint = JointState()
        /// The generation of the pipeline playing: the switch, `albumVolume` and the tags are its.
        var generation = 0
    }

    private let lock = ConditionLock()
    private var shared = Shared()

    /// `body` on the shared values, under the lock.
    func locked<T>(_ body: (inout Shared) -> T) -> T {
        lock.withLock { body(&shared) }
    }

    /// Under the lock: waits until `done` holds or `deadline` passes (`done` is asked again at every wake-up),
    /// then runs `body`.
    func locked<T>(waitingUntil deadline: MonotonicDeadline, for done: (Shared) -> Bool,
                   _ body: (inout Shared) -> T) -> T {
        lock.withLock {
            while !done(shared), lock.wait(until: deadline) {}
            return body(&shared)
        }
    }

    /// Under the lock, then wakes whoever waits: something a waiter looks at has changed.
    func changing<T>(_ body: (inout Shared) -> T) -> T {
        lock.withLock {
            defer { lock.broadcast() }
            return body(&shared)
        }
    }

    /// A new pipeline plays from now on: its own switch, `rgvolume` and tags; returns its generation.
    func newPipeline() -> Int {
        changing { shared in
            shared.generation += 1
            shared.groupSwitch = SwitchState()
            shared.albumVolume = nil
            shared.replayGainTags = ReplayGainTags()
            shared.joint = JointState()
            return shared.generation
        }
    }

    /// The playback rate (the loop sets it; every new stream's segment carries it).
    var rate: Double {
        get { locked { $0.rate } }
        set { locked { $0.rate = newValue } }
    }

    /// The remote file `source-setup` attaches to the next `appsrc://`.
    var servedFile: RemoteFile? {
        get { locked { $0.servedFile } }
        set { locked { $0.servedFile = newValue } }
    }
}
