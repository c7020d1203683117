import XCTest
import PlayerCore
import TestSupport

/// Fades on pause, stop, play and skip, on a clock moved by hand: the status changes at the call, the engine
/// hears the pause (stop, load) when the volume has ramped to 0, and interruptions do the obvious thing.
final class FadingEngineTests: PlayerTestCase {
    var clock: ManualClock!

    /// The player over a FadingEngine with `fades` (pause 1 s, skip 0.5 s unless told).
    func use(_ fades: Fades = Fades(pause: .seconds(1), skip: .milliseconds(500))) {
        clock = ManualClock()
        player = Player(engine: FadingEngine(engine, fades: fades, clock: clock), random: SeededGenerator(state: 42))
        player.addObserver(recorder)
    }

    /// Queues three tracks and plays the first.
    @discardableResult
    func playing() -> [TrackID] {
        let ids = queue(3)
        player.play()
        settle()
        engine.clearCommands()
        return ids
    }

    func testPauseFadesOutThenPausesAndPlayFadesIn() {
        use()
        playing()
        player.pause()
        XCTAssertEqual(player.status, .paused, "the status changes at the call")
        XCTAssertFalse(engine.commands.contains(.pause))
        clock.advance(by: .milliseconds(500))
        XCTAssertEqual(engine.volume, 0.5, accuracy: 0.02, "half way")
        XCTAssertFalse(engine.commands.contains(.pause))
        clock.advance(by: .milliseconds(510))
        XCTAssertEqual(engine.commands.last, .pause, "paused at the end of the fade")
        XCTAssertEqual(engine.volume, 0)
        player.play()
        XCTAssertEqual(engine.commands.last, .play)
        clock.advance(by: .milliseconds(250))
        XCTAssertEqual(engine.volume, 0.25, accuracy: 0.02, "fading in")
        clock.advance(by: .seconds(1))
        XCTAssertEqual(engine.volume, 1)
    }

    /// The fade in follows the clock from the call, whether or not the engine's position moves: pulsesink's stood
    /// still for up to 0.65 s after a resume while the sound was heard, and a ramp held until it moved was silent.
    func testAFadeInRampsFromTheCallThoughThePositionStandsStill() {
        use()
        playing()
        player.pause()
        clock.advance(by: .milliseconds(1010))
        let pausedAt = engine.position
        player.play()
        clock.advance(by: .milliseconds(500))
        XCTAssertEqual(engine.position, pausedAt, "the position has not moved")
        XCTAssertEqual(engine.volume, 0.5, accuracy: 0.02, "half way half a second after the call")
        clock.advance(by: .milliseconds(510))
        XCTAssertEqual(engine.volume, 1)
    }

    /// The loop held up 300 ms 400 ms into a fade in (a loaded machine): the level stays where it was meanwhile, as
    /// the sound server keeps playing it, then the ramp carries on from there at its rate, the late step moving it
    /// on by one step's time (10 ms), and ends that much later; it does not jump to where the clock says (0.71).
    func testAFadeInHeldUpCarriesOnFromWhereItWas() {
        use()
        playing()
        player.pause()
        clock.advance(by: .milliseconds(1010))
        player.play()
        clock.advance(by: .milliseconds(400))
        XCTAssertEqual(engine.volume, 0.4, accuracy: 0.001)
        clock.hold(for: .milliseconds(300))
        clock.advance(by: .milliseconds(10))
        XCTAssertEqual(engine.volume, 0.42, accuracy: 0.001, "two steps on, not 0.71")
        clock.advance(by: .milliseconds(570))
        XCTAssertEqual(engine.volume, 0.99, accuracy: 0.001)
        clock.advance(by: .milliseconds(10))
        XCTAssertEqual(engine.volume, 1)
    }

    /// The same hold in a pause's fade out: the pause comes at the ramp's end, that much later, with the sound at 0.
    func testAPauseFadeHeldUpPausesAtTheRampsEnd() {
        use()
        playing()
        player.pause()
        clock.advance(by: .milliseconds(500))
        clock.hold(for: .milliseconds(300))
        clock.advance(by: .milliseconds(10))
        XCTAssertEqual(engine.volume, 0.48, accuracy: 0.001, "not 0.19")
        clock.advance(by: .milliseconds(470))
        XCTAssertFalse(engine.commands.contains(.pause), "the ramp is at 0.01")
        clock.advance(by: .milliseconds(10))
        XCTAssertEqual(engine.commands.last, .pause)
        XCTAssertEqual(engine.volume, 0)
    }

    func testPlayDuringThePauseFadeRampsBackWithoutPausing() {
        use()
        playing()
        player.pause()
        clock.advance(by: .milliseconds(300))
        player.play()
        clock.advance(by: .seconds(2))
        XCTAssertFalse(engine.commands.contains(.pause), "never paused")
        XCTAssertEqual(engine.volume, 1)
        XCTAssertEqual(player.status, .playing)
    }

    func testTheUsersVolumeIsKeptUnderTheRamp() throws {
        use()
        playing()
        try player.setVolume(0.6)
        player.pause()
        clock.advance(by: .milliseconds(500))
        XCTAssertEqual(engine.volume, 0.3, accuracy: 0.02)
        XCTAssertEqual(player.volume, 0.6, "Volume never moves")
    }

    /// The sleep timer restores its level right after its pause; a user's pause during the sleep fade is the same.
    func testARaiseDuringAFadeOutIsNotHeard() {
        use()
        playing()
        player.fadeLevel = 0.5
        player.pause()
        player.fadeLevel = 1
        XCTAssertEqual(engine.volume, 0.5, accuracy: 0.02, "no jump back to full volume")
        clock.advance(by: .milliseconds(500))
        XCTAssertEqual(engine.volume, 0.25, accuracy: 0.02)
        clock.advance(by: .seconds(1))
        player.play()
        clock.advance(by: .seconds(1))
        XCTAssertEqual(engine.volume, 1, "the raise applies from the next play")
    }

    func testStopFadesOutThenStopsAndPlayStartsAgainFadingIn() {
        use()
        let ids = playing()
        player.stop()
        XCTAssertEqual(player.status, .stopped)
        XCTAssertFalse(engine.commands.contains(.stop))
        clock.advance(by: .milliseconds(1010))
        XCTAssertEqual(engine.commands.last, .stop)
        player.play()
        XCTAssertEqual(engine.current?.id, ids[0])
        XCTAssertEqual(engine.volume, 0)
        clock.advance(by: .seconds(1))
        XCTAssertEqual(engine.volume, 1)
    }

    func testASkipFadesTheOldTrackOutThenLoadsTheChosenOneAtFullVolume() {
        use()
        let ids = playing()
        player.next()
        XCTAssertEqual(player.currentTrackID, ids[1], "current at the call")
        XCTAssertEqual(engine.current?.id, ids[0], "the old track still sounds")
        XCTAssertEqual(player.position, .zero)
        clock.advance(by: .milliseconds(250))
        XCTAssertEqual(engine.volume, 0.5, accuracy: 0.02)
        clock.advance(by: .milliseconds(260))
        XCTAssertEqual(engine.current?.id, ids[1])
        XCTAssertEqual(engine.volume, 1)
        XCTAssertTrue(engine.isPlaying)
        settle()
        XCTAssertEqual(engine.prepared?.id, ids[2], "the next one prepared after the load")
        let load = engine.commands.lastIndex { if case .load = $0 { return true } else { return false } } ?? 0
        XCTAssertTrue(engine.commands[..<load].contains(.pause), "the old track is silent before its stream goes")
        XCTAssertTrue(engine.commands[load...].contains(.setVolume(1)), "the volume is given again once the new track starts")
        clock.advance(by: .seconds(1))
        XCTAssertEqual(engine.commands[load...].filter { $0 == .setVolume(1) }.count, 3, "and after 0.3 s and 1 s")
    }

    func testASecondSkipReplacesTheWaitingTrack() {
        use()
        let ids = playing()
        player.next()
        clock.advance(by: .milliseconds(200))
        player.next()
        clock.advance(by: .milliseconds(400))
        XCTAssertEqual(loads.count, 1)
        XCTAssertEqual(engine.current?.id, ids[2])
    }

    func testAPauseDuringASkipLoadsTheChosenTrackPausedAtOnce() {
        use()
        let ids = playing()
        player.next()
        clock.advance(by: .milliseconds(250))
        player.pause()
        XCTAssertEqual(engine.current?.id, ids[1], "loaded at once")
        XCTAssertFalse(engine.isPlaying)
        clock.advance(by: .seconds(2))
        XCTAssertFalse(engine.commands.contains(.play))
        player.play()
        clock.advance(by: .seconds(1))
        XCTAssertTrue(engine.isPlaying)
        XCTAssertEqual(engine.volume, 1)
    }

    func testAStopDuringASkipGoesOnFadingThenStops() {
        use()
        playing()
        player.next()
        clock.advance(by: .milliseconds(250))
        player.stop()
        XCTAssertFalse(engine.commands.contains(.stop))
        clock.advance(by: .seconds(1))
        XCTAssertEqual(engine.commands.last, .stop)
        XCTAssertEqual(loads, [], "nothing loaded")
    }

    func testASkipWhilePausedLoadsAtOnce() {
        use()
        let ids = playing()
        player.pause()
        clock.advance(by: .seconds(2))
        player.next()
        XCTAssertEqual(engine.current?.id, ids[1])
        XCTAssertEqual(player.status, .paused)
    }

    func testTheOldTracksEndDuringASkipLoadsAtOnce() {
        use()
        let ids = playing()
        player.next()
        engine.finishCurrentTrack()
        settle()
        XCTAssertEqual(engine.current?.id, ids[1])
        XCTAssertEqual(player.currentTrackID, ids[1], "the old track's end is not taken for the new one's")
    }

    /// Zero fades: the engine gets exactly the commands it gets without a FadingEngine.
    func testZeroFadesChangeNothing() throws {
        func script() throws -> [FakeEngine.Command] {
            playing()
            player.pause()
            player.play()
            player.next()
            player.previous()
            try player.setVolume(0.5)
            player.stop()
            player.play()
            settle()
            return engine.commands
        }
        let plain = try script()
        engine = FakeEngine()
        engine.timeScale = 0
        use(Fades())
        XCTAssertEqual(try script(), plain)
    }
}

/// The engine's delivery figures reach the core through a FadingEngine (`quaver stats` with fades on).
final class FadingEngineFiguresTests: XCTestCase {
    /// An engine with figures, doing nothing else.
    final class FiguresEngine: AudioEngine {
        weak var delegate: AudioEngineDelegate?
        func load(_ item: EngineItem, at position: Duration, playing: Bool) {}
        func prepareNext(_ item: EngineItem?) {}
        func update(_ item: EngineItem) {}
        func play() {}
        func pause() {}
        func stop() {}
        func seek(to position: Duration, exact: Bool) {}
        func setRate(_ rate: Double) {}
        func setVolume(_ volume: Double) {}
        var position: Duration? { .zero }
        func statistics() -> DeliveryStatistics? {
            var figures = DeliveryStatistics()
            figures.decoder = "flacdec"
            return figures
        }
    }

    func testTheEnginesFiguresPassThrough() {
        let fading = FadingEngine(FiguresEngine(), fades: Fades(pause: .seconds(1)), clock: ManualClock())
        XCTAssertEqual(fading.statistics()?.decoder, "flacdec")
    }
}
