import EventLoop
import PlayerCore
import XCTest

/// Collects an engine's events, and runs the loop until an expected one arrives.
final class EventRecorder: AudioEngineDelegate {
    private(set) var events: [AudioEngineEvent] = []

    func engine(_ engine: AudioEngine, didEmit event: AudioEngineEvent) {
        events.append(event)
    }

    /// Runs the loop until an event matching `match` arrives after index `from`; returns what it gave.
    @discardableResult
    func wait<T>(for what: String, timeout: Double = 10, after from: Int = 0,
                 file: StaticString = #filePath, line: UInt = #line,
                 _ match: (AudioEngineEvent) -> T?) -> T? {
        var found: T?
        var index = from
        EventLoop.main.run(until: {
            while found == nil, index < events.count {
                found = match(events[index])
                index += 1
            }
            return found != nil
        }, timeout: timeout)
        if found == nil { XCTFail("no \(what) within \(timeout) s; events: \(events)", file: file, line: line) }
        return found
    }

    /// Waits for exactly `event`.
    func wait(for event: AudioEngineEvent, timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line) {
        wait(for: "\(event)", timeout: timeout, file: file, line: line) { $0 == event ? () : nil }
    }

    /// Waits for `.seekCompleted` and returns where the seek landed.
    func waitForSeekCompleted(file: StaticString = #filePath, line: UInt = #line) -> Duration? {
        wait(for: "seekCompleted", file: file, line: line) { event -> Duration? in
            if case .seekCompleted(let at) = event { return at }
            return nil
        }
    }

    func contains(_ event: AudioEngineEvent) -> Bool { events.contains(event) }
}

/// Runs the loop for `seconds`, delivering events meanwhile.
func runLoop(for seconds: Double) {
    EventLoop.main.run(until: { false }, timeout: seconds)
}

func seconds(_ duration: Duration?) -> Double {
    guard let duration else { return .nan }
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
