import ControlAPI
import DBus
import PlayerCore
import PublicText

/// The sleep timer on `org.quaver.Quaver1`: the `SleepTimer` property, `(sx)` — the mode (`off`, `time`,
/// `end-of-track`, `end-of-album`) and the whole seconds left of a timed sleep (0 otherwise) — signalled
/// when it is set, ends, and once a minute while a timed sleep runs; and `SetSleepTimer(mode, seconds)`.
public final class SleepTimerControl: InterfacePart {
    private let timer: SleepTimer
    private let player: Player
    public var valuesChanged: (() -> Void)?

    public init(timer: SleepTimer, player: Player) {
        self.timer = timer
        self.player = player
        timer.observe { [weak self] _ in self?.valuesChanged?() }
    }

    public var properties: [InterfaceDescription.Property] {
        [InterfaceDescription.Property(name: "SleepTimer", type: "(sx)") { [weak self] in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            return self.value
        }]
    }

    public var signalledValues: [String: DBusValue] { ["SleepTimer": value] }

    public var methods: [InterfaceDescription.Method] {
        [InterfaceDescription.Method(name: "SetSleepTimer", inputs: [.init("mode", "s"), .init("seconds", "x")]) {
            [weak self] call in
            guard let self else { throw DBusError.failed("the player is shutting down") }
            let request = try Self.request(mode: call.arguments[0].stringValue ?? "", seconds: call.arguments[1].int64Value ?? 0)
            if request == .endOfTrack || request == .endOfAlbum, self.player.currentTrackID == nil {
                throw DBusError.failed("there is no current track to stop after")
            }
            self.timer.set(request)
            return []
        }]
    }

    private var value: DBusValue {
        let (mode, seconds): (SleepTimerSpelling, Int64) = switch timer.mode {
        case .off: (.off, 0)
        case .at: (.time, timer.remaining.map { Int64(($0 / .seconds(1)).rounded(.up)) } ?? 0)  // 1h15m shows as 1:15:00
        case .endOfTrack: (.endOfTrack, 0)
        case .endOfAlbum: (.endOfAlbum, 0)
        }
        return .structure([.string(mode.rawValue), .int64(seconds)])
    }

    /// The request the arguments name, or InvalidArgs (nothing changes then).
    static func request(mode: String, seconds: Int64) throws -> SleepRequest {
        switch SleepTimerSpelling(rawValue: mode) {
        case .off?: return .off
        case .endOfTrack?: return .endOfTrack
        case .endOfAlbum?: return .endOfAlbum
        case .time?:
            guard (1...SleepTimerSpelling.longest).contains(seconds) else {
                throw DBusError.invalidArgs("seconds must be from 1 to \(SleepTimerSpelling.longest), not \(seconds)")
            }
            return .after(.seconds(seconds))
        case nil:
            let known = SleepTimerSpelling.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw DBusError.invalidArgs("mode must be one of \(known), not \"\(PublicText.from(mode, limit: 40))\"")
        }
    }
}
