import Glibc
import PlayerCore

/// What the loop thread and playbin's streaming thread share, behind one mutex.
///
/// `about-to-finish` runs on a streaming thread and must never wait for the loop thread (the loop
/// may be changing the pipeline's state and waiting on a pad lock that thread holds: Mopidy's
/// deadlock, PLATFORM.md). So the loop leaves the next item here ahead of time, the streaming thread
/// takes it, and the loop later learns on STREAM_START which item's stream has started: the oldest
/// one handed to playbin. Items, not URIs, are queued: the same URI may follow itself (loop-track).
final class Handover {
    private var mutex = pthread_mutex_t()
    private var next: EngineItem?
    private var handedToPlaybin: [EngineItem] = []

    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    /// A new item was loaded directly (or nothing, on stop): forget the prepared and pending ones.
    func reset(loading item: EngineItem?) {
        locked {
            next = nil
            handedToPlaybin = item.map { [$0] } ?? []
        }
    }

    func prepare(_ item: EngineItem?) { locked { next = item } }

    /// Streaming thread: takes the prepared item, if any, recording that playbin now has its URI.
    func takeNext() -> EngineItem? {
        locked {
            guard let item = next else { return nil }
            next = nil
            handedToPlaybin.append(item)
            return item
        }
    }

    /// The item whose stream has just started (the oldest handed to playbin).
    func streamStarted() -> EngineItem? {
        locked { handedToPlaybin.isEmpty ? nil : handedToPlaybin.removeFirst() }
    }

    /// The oldest item handed to playbin whose stream has not started yet.
    var pending: EngineItem? { locked { handedToPlaybin.first } }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
