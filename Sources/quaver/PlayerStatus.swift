import ControlAPI
import DBus
import EventLoop
import QuaverClient

/// What `quaver status` shows, read from MPRIS Player and org.quaver.Quaver1 properties.
struct PlayerStatus {
    /// org.quaver.Quaver1 State (stopped, loading, buffering, playing, paused, failed).
    var state: String
    /// MPRIS PlaybackStatus (Playing, Paused, Stopped), as playerctl's `{{status}}` shows it.
    var playbackStatus: String
    var track: TrackInfo?
    /// Microseconds, as read at `readAt`.
    var position: Int64
    var rate: Double
    var bufferingPercent: Int
    /// org.quaver.Quaver1 BufferedRanges: the downloaded seconds of a remote track, as (start, end) pairs.
    var bufferedRanges: [(start: Double, end: Double)]
    var lastError: String
    /// org.quaver.Quaver1 LastErrorKind and WaitingReason (`HealthSpelling`); empty from an older daemon.
    var lastErrorKind: String
    var waitingReason: String
    /// 0…1.
    var volume: Double
    /// MPRIS LoopStatus lower-cased: none, track, playlist.
    var loop: String
    var shuffle: Bool
    /// org.quaver.Quaver1 SleepTimer, nil when off.
    var sleepTimer: SleepTimerText?
    /// When `position` was read (monotonic microseconds): the base of the local extrapolation.
    var readAt: Int64

    init(player: [String: DBusValue], quaver: [String: DBusValue]) {
        let metadata = player[PlayerProperty.metadata]?.dictionaryValue ?? [:]
        track = metadata.isEmpty ? nil : TrackInfo(metadata)
        playbackStatus = player[PlayerProperty.playbackStatus]?.stringValue ?? "Stopped"
        state = quaver[QuaverProperty.state]?.stringValue ?? playbackStatus.lowercased()
        position = player[PlayerProperty.position]?.int64Value ?? 0
        rate = player[PlayerProperty.rate]?.doubleValue ?? 1
        bufferingPercent = Int(quaver[QuaverProperty.bufferingPercent]?.int64Value ?? 100)
        bufferedRanges = (quaver[QuaverProperty.bufferedRanges]?.arrayValue ?? []).compactMap { pair in
            guard let ends = pair.arrayValue, ends.count == 2, let start = ends[0].doubleValue, let end = ends[1].doubleValue
            else { return nil }
            return (start, end)
        }
        lastError = quaver[QuaverProperty.lastError]?.stringValue ?? ""
        lastErrorKind = quaver[QuaverProperty.lastErrorKind]?.stringValue ?? ""
        waitingReason = quaver[QuaverProperty.waitingReason]?.stringValue ?? ""
        volume = player[PlayerProperty.volume]?.doubleValue ?? 1
        loop = (player[PlayerProperty.loopStatus]?.stringValue ?? "None").lowercased()
        shuffle = player[PlayerProperty.shuffle]?.boolValue ?? false
        sleepTimer = quaver[QuaverProperty.sleepTimer].flatMap(SleepTimerText.init)
        readAt = EventLoop.monotonicMicroseconds
    }

    static func read(_ client: QuaverClient) throws -> PlayerStatus {
        PlayerStatus(player: try client.playerProperties(), quaver: try client.getAll(ControlAPI.quaverInterface))
    }

    /// The position now: MPRIS sends no position updates (docs/mpris.md, "Position"), so clients extrapolate with Rate.
    func position(at now: Int64) -> Int64 {
        guard state == "playing" else { return position }
        let elapsed = Int64(Double(now - readAt) * rate)
        return track?.length.map { min(position + elapsed, $0) } ?? position + elapsed
    }

    /// `playing  Title – Artist  1:23 / 3:45`
    func summary(at now: Int64) -> String {
        guard let track else { return state == "failed" && !lastError.isEmpty ? "failed  \(lastError)" : state }
        return "\(state)  \(track.label)  \(times(at: now))" + (sleepTimer.map { "  (\($0))" } ?? "")
    }

    /// `▶ Title – Artist  [######--------------]  1:23 / 3:45`, with the network buffer for streams.
    func liveLine(at now: Int64, barWidth: Int = 24) -> String {
        let symbol = ["playing": "▶", "paused": "⏸", "loading": "…", "buffering": "…", "failed": "✗"][state] ?? "■"
        guard let track else { return "\(symbol) \(state)" }
        var line = "\(symbol) \(track.label)  \(bar(at: now, width: barWidth))  \(times(at: now))"
        if bufferingPercent < 100 { line += "  buffering \(bufferingPercent)%" }
        return line
    }

    func times(at now: Int64) -> String {
        let elapsed = TimeText.format(microseconds: position(at: now))
        return track?.length.map { "\(elapsed) / \(TimeText.format(microseconds: $0))" } ?? elapsed
    }

    /// Elapsed part `#`, then what is downloaded and not played yet `=` (BufferedRanges: a remote file, holes
    /// and all), then `-`. A stream without BufferedRanges shows its refilling buffer as `=` after the elapsed
    /// part; without a length (live streams) the bar shows that buffer alone.
    private func bar(at now: Int64, width: Int) -> String {
        let refill = bufferingPercent < 100 ? Double(bufferingPercent) / 100 : 0
        guard let length = track?.length, length > 0 else {
            return "[" + cells(0, refill, width) + "]"
        }
        let played = Double(position(at: now)) / Double(length)
        guard !bufferedRanges.isEmpty else { return "[" + cells(played, refill * (1 - played), width) + "]" }
        let seconds = Double(length) / 1_000_000
        let playedCells = min(width, Int((played * Double(width)).rounded()))
        let marks = (0..<width).map { cell -> Character in
            if cell < playedCells { return "#" }
            let middle = (Double(cell) + 0.5) / Double(width) * seconds
            return bufferedRanges.contains { $0.start <= middle && middle < $0.end } ? "=" : "-"
        }
        return "[" + String(marks) + "]"
    }

    private func cells(_ played: Double, _ buffered: Double, _ width: Int) -> String {
        let playedCells = min(width, Int((played * Double(width)).rounded()))
        let bufferedCells = min(width - playedCells, Int((buffered * Double(width)).rounded()))
        return String(repeating: "#", count: playedCells) + String(repeating: "=", count: bufferedCells)
            + String(repeating: "-", count: width - playedCells - bufferedCells)
    }
}
