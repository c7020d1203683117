import DBus
import Foundation
import TestSupport
import XCTest

/// Fades heard where they matter: the null sink's monitor is recorded while quaverd plays a steady tone through
/// PulseAudio, and the fade's length is read from the recording — from the slope of the tone's level where the
/// ramp is heard — then the sound must be gone. Without fades, a pause cuts the sound within a few milliseconds,
/// as before.
class FadeRecordingChecks: DaemonSoundServerChecks {
    /// config.toml's text, written before quaverd starts; nil: no settings file.
    var settings: String? { nil }

    /// A reader of sink `a`'s monitor at 10 ms latency from before quaverd starts to the test's end: a desktop's
    /// sink plays what it is given within milliseconds, and a null sink no client asks for less renders up to
    /// 2 s ahead. Without one, quaverd's first play sat unread in the sink for all of its 1.5 s in some runs, the
    /// pause corked a stream the sink had never read, and the Play after it was silent for seconds
    /// (docs/development.md, "The null sink's two seconds").
    private var lowLatencyReader: SpawnedTool?

    override func startDaemon() throws {
        if let settings {
            let folder = home.url.appendingPathComponent("config/quaver")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try settings.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        }
        lowLatencyReader = try SpawnedTool(["parec", "-d", "a.monitor", "--raw", "--latency-msec=10"], environment: sound.environment,
                                           output: "/dev/null", errors: sound.directory.path + "/parec-low-latency.err")
        try super.startDaemon()
    }

    override func tearDown() {
        lowLatencyReader = nil  // stopped by PID
        super.tearDown()
    }

    func call(_ method: String, _ arguments: [DBusValue] = []) throws {
        _ = try client.call(destination: "org.mpris.MediaPlayer2.quaver", path: "/org/mpris/MediaPlayer2",
                            interface: "org.mpris.MediaPlayer2.Player", method: method, arguments: arguments, timeout: 5)
    }

    /// Records the default sink's monitor from 1.5 s of sound before `action` (`measureFade` takes the steady level
    /// from the first half second) to `after` seconds of sound after it; the recording's 48 kHz mono samples and
    /// the 5 ms window (`envelope`'s) in which `action` was called, and the seconds of sound it lost from the
    /// second before the call on (`MonitorRecording.secondsLost`). `action` is handed the recording, to wait on it.
    func record(around action: (MonitorRecording) throws -> Void, after: Double) throws -> (recorded: (samples: [Int16], called: Int), lost: Double) {
        let recording = try MonitorRecording(sink: "a", on: sound)
        try recording.waitUntilRecorded(1.5)
        let calledAt = recording.seconds
        try action(recording)
        try recording.waitUntilRecorded(recording.seconds + after)
        let samples = try recording.stop()
        return ((samples, Int(calledAt * 200)), recording.secondsLost(after: calledAt))
    }

    /// The longest a loaded sound server's output was seen to drop out (5 ms) with room to spare, in ms: a
    /// longer silence once a fade in is heard is the stream stopping.
    static let longestDropout = 100.0

    /// The most sound a recording may lose and still time a fade: 10 ms, 4 % of the quarter second over which a
    /// skip's fade of 500 ms is measured.
    static let losable = 0.01

    /// The recording `attempt` makes (told whether it is made again), once one loses no more than `losable`; made
    /// at most three times, then the test is skipped, saying so. A sound server held up long enough to lose sound
    /// leaves no trace in the recording itself (`MonitorRecording.secondsLost`), yet moves the fade's slope: a lost
    /// 43 ms read a fade out of a second as 877 ms.
    func wholeRecording<Recorded>(_ attempt: (_ again: Bool) throws -> (recorded: Recorded, lost: Double)) throws -> Recorded {
        var losses: [String] = []
        for index in 0..<3 {
            let made = try attempt(index > 0)
            if made.lost <= Self.losable { return made.recorded }
            losses.append("\(Int(made.lost * 1000)) ms")
            print("\(sound.name): the recording lost \(losses.last!) of sound to the sound server; made again")
        }
        throw XCTSkip("\(sound.name): each of three recordings lost sound to the sound server (\(losses.joined(separator: ", ")))")
    }

    /// The tone's peak in each 5 ms window (240 samples: three periods of 660 Hz and more).
    static func envelope(_ samples: [Int16]) -> [Double] {
        stride(from: 0, to: samples.count - 239, by: 240).map { start in
            Double(samples[start..<start + 240].map { abs(Int($0)) }.max() ?? 0)
        }
    }

    /// The fade after the steady start: its length in ms, and the window where the level first falls below 10 %.
    /// It is looked for from the call (window `called`) on: under load the sound server's output dropped out for
    /// a window once before the call, which read as a fade of 0 ms. The length is the ramp's slope where it falls
    /// from 75 % to 25 % (`rampLength`), not the time from its 90 % to its 10 %: a loaded sound server that
    /// applied the first steps late held the level up and then jumped, which shortened that time (425 ms for
    /// 500 once on PipeWire) though the ramp ran at its rate. Each level counts as passed once the sound stays
    /// under it for 50 ms (`settled`), and the ramp's slope leaves out windows under 20 %: a loaded sound server's
    /// 5 ms dropout half way down would otherwise read as the fade's end, and the sound still fading after it as
    /// a pause not taken. The last level, 10 %, also counts as passed when the next track starts within those
    /// 50 ms (over half the full level, more than any of the ramp left): a skip's opened track is heard 55–65 ms
    /// after it, and a CI run that found no fade at all most likely heard it sooner.
    static func measureFade(_ recorded: (samples: [Int16], called: Int), file: StaticString = #filePath,
                            line: UInt = #line) -> (length: Double, below10: Int)? {
        let levels = envelope(recorded.samples)
        guard levels.count > 100 else { XCTFail("recorded \(recorded.samples.count) samples", file: file, line: line); return nil }
        let steady = levels[20..<100].sorted()[40]  // the median of 0.1 s to 0.5 s in
        let fractions = levels.map { $0 / steady }
        let from = max(100, recorded.called)
        let below75 = settled(fractions, under: 0.75, from: from)
        let below25 = below75.flatMap { settled(fractions, under: 0.25, from: $0) }
        let below10 = below25.flatMap { settled(fractions, under: 0.1, from: $0, untilAbove: 0.5) }
        guard steady > 1000, let below75, let below25, let below10,
              let length = rampLength(fractions[below75..<below25].map { $0 >= 0.2 ? $0 : nil }) else {
            let missing = steady <= 1000 ? "no steady tone" : below75 == nil ? "never under 75 %" : below25 == nil ? "never under 25 %"
                : below10 == nil ? "never under 10 %" : "no ramp from 75 % to 25 %"
            let peaks = stride(from: from, to: levels.count, by: 10).map { Int(levels[$0..<min(levels.count, $0 + 10)].max() ?? 0) }
            XCTFail("no fade found (\(missing)): steady level \(steady); peaks per 50 ms from the call: \(peaks)", file: file, line: line)
            return nil
        }
        return (length, below10)
    }

    /// The first window from `start` on from which the level stays under `fraction` for 50 ms (10 windows), or,
    /// given `untilAbove`, until it rises over that (another sound).
    static func settled(_ fractions: [Double], under fraction: Double, from start: Int, untilAbove other: Double = .infinity) -> Int? {
        fractions.indices.dropFirst(start).first { index in
            let next = fractions[index..<min(fractions.count, index + 10)]
            let before = next.prefix { $0 <= other }
            return !before.isEmpty && before.allSatisfy { $0 < fraction }
        }
    }

    /// A ramp's whole length (0 to full, or back) in ms, from the least-squares slope of `windows` (fractions of
    /// the full level, one per 5 ms window; nil: a dropout, its level left out and its time kept, as the ramp ran
    /// on through it) with the time the level stood still taken out (`stoodStill`): quaverd or the sound server
    /// held up, and the ramp carrying on from where it was. A jump to catch up with the clock is kept, and
    /// steepens the slope. Nil for fewer than 10 windows (50 ms), too few to tell a ramp from a jump.
    static func rampLength(_ windows: [Double?]) -> Double? {
        let still = stoodStill(windows)
        let moving = windows.indices.filter { !still.contains($0) }
        let points = moving.enumerated().compactMap { step, index in windows[index].map { (Double(step) * 5, $0) } }
        guard points.count >= 10 else { return nil }
        let times = points.map(\.0), levels = points.map(\.1)
        let meanTime = times.reduce(0, +) / Double(times.count), meanLevel = levels.reduce(0, +) / Double(levels.count)
        let covariance = zip(times, levels).map { ($0 - meanTime) * ($1 - meanLevel) }.reduce(0, +)
        let variance = times.map { ($0 - meanTime) * ($0 - meanTime) }.reduce(0, +)
        return covariance == 0 ? nil : abs(variance / covariance)
    }

    /// The windows after the first of each run of 16 or more (80 ms) that stay within 0.5 % of the full level of
    /// its first: the level stood still there. Shorter runs are kept: a sound server applies a volume once per
    /// cycle of its graph (PipeWire's quantum, 21 ms and more), a staircase whose treads are the ramp's time.
    static func stoodStill(_ windows: [Double?]) -> Set<Int> {
        var still = Set<Int>(), start = 0
        while start < windows.count {
            var end = start + 1
            if let first = windows[start] {
                while end < windows.count, let level = windows[end], abs(level - first) < 0.005 { end += 1 }
            }
            if end - start >= 16 { still.formUnion(start + 1..<end) }
            start = end
        }
        return still
    }

    /// The windows from where a fade in is first heard (5 % of its full level, the loudest window) to where it is
    /// full (95 %), and that full level; nil when nothing is heard.
    static func audibleRise(_ levels: [Double]) -> (windows: ClosedRange<Int>, full: Double)? {
        guard let full = levels.max(), full > 0, let heard = levels.firstIndex(where: { $0 > 0.05 * full }),
              let top = levels.indices.dropFirst(heard).first(where: { levels[$0] > 0.95 * full }) else { return nil }
        return (heard...top, full)
    }

    /// The longest silence in a fade in's `audibleRise` of `levels`, in ms: its longest run of windows under 5 % of
    /// the full level. The ramp's measure leaves the level of a silence out and keeps its time, so a stream that
    /// stopped for a while in its ramp (the resume's hole, docs/platform.md) is caught here, not by a slope.
    static func longestSilence(_ levels: [Double], in rise: (windows: ClosedRange<Int>, full: Double)) -> Double {
        var longest = 0, run = 0
        for level in levels[rise.windows] {
            run = level < 0.05 * rise.full ? run + 1 : 0
            longest = max(longest, run)
        }
        return Double(longest * 5)
    }

    /// The most the level moves in 20 ms (4 windows, two volume steps) over `levels` (fractions of the full level).
    static func largestStep(_ levels: ArraySlice<Double>) -> Double {
        zip(levels, levels.dropFirst(4)).map { abs($1 - $0) }.max() ?? 0
    }

    /// A fade in's length in ms, from its slope where it rises from 30 % to 80 % of the full level, or from
    /// where it is first heard when that is higher: a sound server that starts the stream late (under load, up to
    /// half a second after the call) lets the ramp be heard from half way up, at its rate. Nil when the sound
    /// starts too high to show a ramp; `heardFrom` is then its first level.
    static func measureRise(_ levels: [Double]) -> (length: Double?, heardFrom: Double)? {
        guard let (audible, full) = audibleRise(levels), full > 1000,
              let at30 = audible.first(where: { levels[$0] > 0.3 * full }),
              let at80 = levels.indices.dropFirst(at30).first(where: { levels[$0] > 0.8 * full }) else { return nil }
        return (rampLength(levels[at30..<at80].map { $0 >= 0.25 * full ? $0 / full : nil }), levels[audible.lowerBound] / full)
    }
}

/// The same checks on PulseAudio and on PipeWire (through pipewire-pulse): 1000 ms for a pause, 500 ms for a skip.
class FadeChecks: FadeRecordingChecks {
    override var settings: String? { "[playback]\nfade-on-pause-ms = 1000\nfade-on-skip-ms = 500\n" }

    func checkPauseFadesOutOverTheSetTimeThenTheSoundStops() throws {
        assertPlaysOn("before")
        var statusAtTheCall: String?
        let recorded = try wholeRecording { again in
            if again {
                // Playing again, and steady: Play's fade in is over once a second of the track played after it.
                let paused = position
                try call("Play")
                XCTAssertTrue(eventually(timeout: 15) { self.position > paused + 1_200_000 }, "playing again after the pause")
            }
            return try record(around: { _ in
                try call("Pause")
                statusAtTheCall = status
            }, after: 2)
        }
        XCTAssertEqual(statusAtTheCall, "Paused", "PlaybackStatus changes at the call")
        guard let fade = Self.measureFade(recorded) else { return }
        print("\(sound.name): fade-on-pause-ms = 1000: fade measured at \(String(format: "%.0f", fade.length)) ms on the recording")
        let levels = Self.envelope(recorded.samples)
        let peaks = "peaks per 50 ms from the call: \(stride(from: recorded.called, to: levels.count, by: 10).map { Int(levels[$0..<min(levels.count, $0 + 10)].max() ?? 0) })"
        XCTAssertEqual(fade.length, 1000, accuracy: 50, peaks)
        let endOfFade = fade.below10 + 20 + 10  // the last 10 % of the ramp (100 ms), and 50 ms more
        XCTAssertLessThan(levels[endOfFade...].max() ?? 0, 330, "silent after the fade: the pause took effect; " + peaks)
    }

    /// What quaverd and the sound server say right after a fade in that was not heard as one, for its message:
    /// the status, the position 200 ms apart (moving or not), and the stream's state and volume at the server.
    /// A Play heard as seconds of silence had left nothing else to tell it by than the recording.
    func stateAfterTheRise() -> String {
        let (status, first) = (status ?? "none", position)
        usleep(200_000)
        let stream = ((try? sound.pactl(["list", "sink-inputs"]))?.stdout ?? "")
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("Corked:") || $0.hasPrefix("Volume:") || $0.hasPrefix("Sink:") }
        return "status \(status), position \(first) then \(position) µs 200 ms later, stream \(stream.joined(separator: "; "))"
    }

    /// Pauses, and waits for the end of the pause's fade.
    func pauseAndWaitForTheStreamCorked() throws {
        try call("Pause")
        XCTAssertTrue(eventually(timeout: 5) { (try? self.sound.pactl(["-f", "json", "list", "sink-inputs"]))?.stdout.contains("\"corked\":true") == true },
                      "the stream is corked at the end of the fade")
    }

    func checkPlayFadesIn() throws {
        assertPlaysOn("before")
        let levels = Self.envelope(try wholeRecording { _ in
            try pauseAndWaitForTheStreamCorked()
            return try record(around: { _ in try call("Play") }, after: 2)
        }.samples)
        guard let rise = Self.measureRise(levels), let audible = Self.audibleRise(levels) else {
            return XCTFail("no sound after Play; \(stateAfterTheRise())")
        }
        guard let length = rise.length else {
            return XCTFail("heard from \(Int(rise.heardFrom * 100)) % of the full level: a jump, not a ramp; \(stateAfterTheRise())")
        }
        let silence = Self.longestSilence(levels, in: audible)
        print("\(sound.name): fade-on-pause-ms = 1000: Play faded in over \(String(format: "%.0f", length)) ms on the recording, "
              + "heard from \(Int(rise.heardFrom * 100)) %, its longest silence \(Int(silence)) ms")
        // A message is made only when its check fails (XCTest takes it as an autoclosure).
        XCTAssertEqual(length, 1000, accuracy: 50, "a ramp of a second, not a jump; \(stateAfterTheRise())")
        XCTAssertLessThan(silence, Self.longestDropout, "the sound does not stop once heard; \(stateAfterTheRise())")
    }

    /// quaverd stopped (SIGSTOP) for 300 ms of sound 400 ms into a fade in, as a loaded machine may hold it up: the
    /// level stays where it was meanwhile (the sound server plays on), then the ramp carries on from there at its
    /// rate, heard whole; it does not jump by the time missed (a third of the full level before).
    func checkAHeldUpFadeInCarriesOnFromWhereItWas() throws {
        assertPlaysOn("before")
        let levels = Self.envelope(try wholeRecording { _ in
            try pauseAndWaitForTheStreamCorked()
            return try record(around: { recording in
                try call("Play")
                try recording.waitUntilRecorded(recording.seconds + 0.4)
                kill(daemon.pid, SIGSTOP)
                let held = Result { try recording.waitUntilRecorded(recording.seconds + 0.3) }
                kill(daemon.pid, SIGCONT)
                try held.get()
            }, after: 1.5)
        }.samples)
        let peaks = "peaks per 50 ms: \(stride(from: 0, to: levels.count, by: 10).map { Int(levels[$0..<min(levels.count, $0 + 10)].max() ?? 0) })"
        guard let rise = Self.measureRise(levels), let length = rise.length, let audible = Self.audibleRise(levels) else {
            return XCTFail("no ramp after Play; \(stateAfterTheRise()); " + peaks)
        }
        let step = Self.largestStep(levels[audible.windows].map { $0 / audible.full }[...])
        let silence = Self.longestSilence(levels, in: audible)
        print("\(sound.name): fade-on-pause-ms = 1000, quaverd held 300 ms: Play faded in at \(String(format: "%.0f", length)) ms a ramp, "
              + "heard from \(Int(rise.heardFrom * 100)) % to 95 % in \((audible.windows.count - 1) * 5) ms, largest step in 20 ms \(Int(step * 100)) %, "
              + "longest silence \(Int(silence)) ms")
        XCTAssertEqual(length, 1000, accuracy: 50, "\(stateAfterTheRise()); " + peaks)
        XCTAssertLessThan(step, 0.15, "no jump after the hold; \(stateAfterTheRise()); " + peaks)
        XCTAssertLessThan(silence, Self.longestDropout, "the sound does not stop once heard, held or not; \(stateAfterTheRise()); " + peaks)
    }

    func checkASkipFadesTheOldTrackOutOverTheSetTime() throws {
        assertPlaysOn("before")
        var opened = 0
        let recorded = try wholeRecording { _ in
            opened += 1
            let other = try sound.tone(seconds: 300, named: "other-\(opened).flac")
            return try record(around: { _ in try call("OpenUri", [.string(other.absoluteString)]) }, after: 4)
        }
        guard let fade = Self.measureFade(recorded) else { return }
        let levels = Self.envelope(recorded.samples)
        let start = levels.indices.dropFirst(fade.below10).first { levels[$0] > 0.9 * levels[20..<100].sorted()[40] }
        print("\(sound.name): fade-on-skip-ms = 500: fade measured at \(String(format: "%.0f", fade.length)) ms on the recording; "
              + "the opened track at full volume \(start.map { "\(($0 - fade.below10) * 5) ms" } ?? "never") after the fade's 10 %")
        XCTAssertEqual(fade.length, 500, accuracy: 50, "peaks per 50 ms from the call: "
                       + "\(stride(from: recorded.called, to: levels.count, by: 10).map { Int(levels[$0..<min(levels.count, $0 + 10)].max() ?? 0) })")
        // Its stream is new: on PipeWire under a heavy load it took over a second to be heard; at full volume then.
        // A quieter stream is quieter throughout; the lowest tenth of the last half second is left out, where a
        // 5 ms dropout of the loaded sound server once read as a silent track (FadesOnPipeWireTests, load 8.7).
        let steady = levels[20..<100].sorted()[40]
        XCTAssertGreaterThan(levels.suffix(100).sorted()[10], 0.9 * steady, "the opened track plays at full volume; peaks per 100 ms: "
                             + "\(stride(from: 0, to: levels.count, by: 20).map { Int(levels[$0..<min(levels.count, $0 + 20)].max() ?? 0) })")
        XCTAssertEqual(status, "Playing")
    }
}

final class FadesOnPulseAudioTests: FadeChecks {
    override func makeServer() throws -> SoundServerRig { try PulseAudioServer() }

    func testPauseFadesOutOverTheSetTimeThenTheSoundStops() throws { try checkPauseFadesOutOverTheSetTimeThenTheSoundStops() }
    func testPlayFadesIn() throws { try checkPlayFadesIn() }
    func testAHeldUpFadeInCarriesOnFromWhereItWas() throws { try checkAHeldUpFadeInCarriesOnFromWhereItWas() }
    func testASkipFadesTheOldTrackOutOverTheSetTime() throws { try checkASkipFadesTheOldTrackOutOverTheSetTime() }
}

final class FadesOnPipeWireTests: FadeChecks {
    override func makeServer() throws -> SoundServerRig { try PipeWireServer() }

    /// pipewire-pulse stopped for 45 ms (SIGSTOP, by PID) in the first recording, as a loaded machine holds it
    /// up: that recording lost sound (`MonitorRecording.secondsLost`) and is made again; the second, left alone,
    /// is whole and kept.
    func testARecordingThatLostSoundIsMadeAgain() throws {
        assertPlaysOn("before")
        let pulse = try XCTUnwrap((sound as? PipeWireServer)?.pulseLayerProcessID, "pipewire-pulse's process")
        var losses: [Double] = []
        _ = try wholeRecording { again in
            let made = try record(around: { recording in
                guard !again else { return }
                try recording.waitUntilRecorded(recording.seconds + 0.2)
                kill(pulse, SIGSTOP)
                usleep(45_000)
                kill(pulse, SIGCONT)
            }, after: 1)
            losses.append(made.lost)
            return made
        }
        XCTAssertEqual(losses.count, 2, "made again once; lost: \(losses)")
        XCTAssertGreaterThan(losses[0], Self.losable, "the held-up recording lost sound")
    }

    func testPauseFadesOutOverTheSetTimeThenTheSoundStops() throws { try checkPauseFadesOutOverTheSetTimeThenTheSoundStops() }
    func testPlayFadesIn() throws { try checkPlayFadesIn() }
    func testAHeldUpFadeInCarriesOnFromWhereItWas() throws { try checkAHeldUpFadeInCarriesOnFromWhereItWas() }
    func testASkipFadesTheOldTrackOutOverTheSetTime() throws { try checkASkipFadesTheOldTrackOutOverTheSetTime() }
}

final class NoFadeOnPulseAudioTests: FadeRecordingChecks {
    override func makeServer() throws -> SoundServerRig { try PulseAudioServer() }

    func testWithoutFadesPauseCutsTheSoundAtOnce() throws {
        assertPlaysOn("before")
        let recorded = try record(around: { _ in try call("Pause") }, after: 1.5).recorded
        let levels = Self.envelope(recorded.samples)
        let steady = levels[20..<100].sorted()[40]
        guard let below90 = levels.indices.dropFirst(max(100, recorded.called)).first(where: { levels[$0] < 0.9 * steady }) else {
            return XCTFail("the sound never stopped")
        }
        let stop = levels.indices.dropFirst(below90).first(where: { levels[$0] < 0.1 * steady }) ?? levels.count
        print("no fade: 90 % to 10 % in \((stop - below90) * 5) ms on the recording")
        XCTAssertLessThanOrEqual((stop - below90) * 5, 10, "cut within a window or two, as without fades")
    }
}

/// The measures on made-up recordings (48 kHz, a 660 Hz tone at the level a function of the time in seconds gives).
final class FadeMeasureTests: XCTestCase {
    static func tone(seconds: Double, _ level: (Double) -> Double) -> [Int16] {
        (0..<Int(seconds * 48_000)).map { index in
            let time = Double(index) / 48_000
            return Int16(10_000 * level(time) * sin(2 * Double.pi * 660 * time))
        }
    }

    /// 1.5 s of a steady tone with a 10 ms dropout at 1 s, the call at 1.5 s, a linear ramp of a second to
    /// silence, then a second of silence.
    func testADropoutBeforeTheCallIsNotReadAsTheFade() throws {
        let recording = Self.tone(seconds: 4) { time in time < 1.5 ? ((1.0..<1.01).contains(time) ? 0 : 1) : max(0, 1 - (time - 1.5)) }
        let fade = try XCTUnwrap(FadeRecordingChecks.measureFade((recording, called: 300)))
        XCTAssertEqual(fade.length, 1000, accuracy: 15)
        XCTAssertEqual(fade.below10, 300 + 180, accuracy: 2, "the ramp is under 10 % from 0.9 s after the call")
    }

    /// A fade out of 0.5 s whose first 120 ms the sound server applied late: the level stays up, then jumps to
    /// where the ramp is (90 % to 10 % took 412 ms of the 500: FadesOnPipeWireTests measured 425 once).
    func testAFadeOutHeldUpAtItsStartIsMeasuredAtItsRate() throws {
        let recording = Self.tone(seconds: 3) { time in time < 1.62 ? 1 : max(0, 1 - (time - 1.5) / 0.5) }
        let fade = try XCTUnwrap(FadeRecordingChecks.measureFade((recording, called: 300)))
        XCTAssertEqual(fade.length, 500, accuracy: 15)
    }

    /// A 5 ms dropout half way down a fade of a second: neither its length nor its end.
    func testADropoutDuringTheFadeIsNotItsEnd() throws {
        let recording = Self.tone(seconds: 4) { time in (2.15..<2.155).contains(time) ? 0 : time < 1.5 ? 1 : max(0, 1 - (time - 1.5)) }
        let fade = try XCTUnwrap(FadeRecordingChecks.measureFade((recording, called: 300)))
        XCTAssertEqual(fade.length, 1000, accuracy: 15)
        XCTAssertEqual(fade.below10, 300 + 180, accuracy: 2, "the ramp is under 10 % from 0.9 s after the call")
    }

    /// A fade out of 0.5 s that the next track, at full level, overlaps for its last 10 ms (a skip's opened track
    /// heard soon after the fade): the fade is measured, and its 10 % is where the ramp passes it.
    func testANextTrackRightAfterTheFadeIsNotReadAsNoFade() throws {
        let recording = Self.tone(seconds: 3) { time in time < 1.5 ? 1 : time >= 1.99 ? 1 : max(0, 1 - (time - 1.5) / 0.5) }
        let fade = try XCTUnwrap(FadeRecordingChecks.measureFade((recording, called: 300)))
        XCTAssertEqual(fade.length, 500, accuracy: 15)
        XCTAssertEqual(fade.below10, 300 + 90, accuracy: 2, "the ramp is under 10 % from 0.45 s after the call")
    }

    /// A fade in of a second heard from 53 % of the full level, its stream started late by the sound server
    /// (the 20 % to 90 % of the old measure read 529 ms).
    func testAFadeInHeardFromHalfWayUpIsMeasuredAtItsRate() throws {
        let levels = FadeRecordingChecks.envelope(Self.tone(seconds: 3) { time in time < 1.53 ? 0 : min(1, time - 1) })
        let rise = try XCTUnwrap(FadeRecordingChecks.measureRise(levels))
        XCTAssertEqual(try XCTUnwrap(rise.length), 1000, accuracy: 15)
        XCTAssertEqual(rise.heardFrom, 0.53, accuracy: 0.02)
    }

    /// A fade in of a second that stands still at 40 % for 300 ms and carries on from there (quaverd held up):
    /// measured at its rate, and with no step larger than the ramp's own; the same hold followed by a jump to
    /// where the clock is has one of 30 %.
    func testAFadeInHeldHalfWayIsMeasuredAtItsRate() throws {
        let held = FadeRecordingChecks.envelope(Self.tone(seconds: 4) { time in
            time < 1 ? 0 : time < 1.4 ? time - 1 : time < 1.7 ? 0.4 : min(1, time - 1.3)
        })
        let rise = try XCTUnwrap(FadeRecordingChecks.measureRise(held))
        XCTAssertEqual(try XCTUnwrap(rise.length), 1000, accuracy: 15)
        XCTAssertLessThan(FadeRecordingChecks.largestStep(held.map { $0 / 10_000 }[...]), 0.05)
        let jumped = FadeRecordingChecks.envelope(Self.tone(seconds: 4) { time in
            time < 1 ? 0 : time < 1.4 ? time - 1 : time < 1.7 ? 0.4 : min(1, time - 1)
        })
        XCTAssertGreaterThan(FadeRecordingChecks.largestStep(jumped.map { $0 / 10_000 }[...]), 0.25)
    }

    /// A fade in of a second whose sound stops for 200 ms from 40 % while its ramp runs on (the resume's hole):
    /// measured at its rate, the silence's time kept (left out, as before, the ramp read as 530 ms), and the
    /// silence found; the whole ramp has none.
    func testASilenceInAFadeInKeepsItsTimeAndIsFound() throws {
        let levels = FadeRecordingChecks.envelope(Self.tone(seconds: 3) { time in
            (1.4..<1.6).contains(time) ? 0 : time < 1 ? 0 : min(1, time - 1)
        })
        let rise = try XCTUnwrap(FadeRecordingChecks.measureRise(levels))
        XCTAssertEqual(try XCTUnwrap(rise.length), 1000, accuracy: 15)
        XCTAssertEqual(FadeRecordingChecks.longestSilence(levels, in: try XCTUnwrap(FadeRecordingChecks.audibleRise(levels))), 200)
        let whole = FadeRecordingChecks.envelope(Self.tone(seconds: 3) { time in time < 1 ? 0 : min(1, time - 1) })
        XCTAssertEqual(FadeRecordingChecks.longestSilence(whole, in: try XCTUnwrap(FadeRecordingChecks.audibleRise(whole))), 0)
    }

    func testASoundThatStartsNearlyFullIsNoRamp() throws {
        let levels = FadeRecordingChecks.envelope(Self.tone(seconds: 3) { time in time < 1.79 ? 0 : min(1, time - 1) })
        let rise = try XCTUnwrap(FadeRecordingChecks.measureRise(levels))
        XCTAssertNil(rise.length, "heard from \(rise.heardFrom)")
    }
}
