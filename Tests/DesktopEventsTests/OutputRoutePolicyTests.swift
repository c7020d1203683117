@testable import DesktopEvents
import XCTest

/// The output decision on recorded sound-server event sequences (the order PulseAudio 16 sends them:
/// a removed sink's streams are moved first, then the sink is removed).
final class OutputRoutePolicyTests: XCTestCase {
    let headphones = PortInfo(name: "analog-output-headphones", kind: .headphones)
    let speakers = PortInfo(name: "analog-output-speaker", kind: .speaker)
    lazy var laptop = SinkInfo(index: 1, name: "alsa_output.pci.analog-stereo", activePort: headphones)
    let usb = SinkInfo(index: 2, name: "alsa_output.usb-dac", activePort: nil)

    private func decisions(_ events: [SoundServerEvent]) -> [OutputRoutePolicy.Decision] {
        var policy = OutputRoutePolicy()
        return events.compactMap { policy.handle($0) }
    }

    private func laptopOn(_ port: PortInfo) -> SoundServerEvent {
        var sink = laptop
        sink.activePort = port
        return .sink(sink)
    }

    func testHeadphonesToSpeakersOnOurSinkPauses() {
        XCTAssertEqual(decisions([.sink(laptop), .stream(index: 9, sink: 1), laptopOn(speakers)]),
                       [.pause(.portChanged(sink: laptop.name, from: headphones.name, to: speakers.name))])
    }

    func testSpeakersToHeadphonesDoesNotPause() {
        XCTAssertEqual(decisions([laptopOn(speakers), .stream(index: 9, sink: 1), laptopOn(headphones)]), [])
    }

    func testPortChangeOnAnotherSinkDoesNotPause() {
        XCTAssertEqual(decisions([.sink(laptop), .sink(usb), .stream(index: 9, sink: 2), laptopOn(speakers)]), [])
    }

    func testUnknownPortTypeNamedHeadphonesCounts() {
        let old = PortInfo(name: "analog-output-headphones", kind: .unknown)
        let new = PortInfo(name: "analog-output-lineout", kind: .unknown)
        XCTAssertEqual(decisions([laptopOn(old), .stream(index: 9, sink: 1), laptopOn(new)]).count, 1)
    }

    func testRemovingTheSinkWePlayOnPauses() {
        XCTAssertEqual(decisions([.sink(usb), .stream(index: 9, sink: 2), .sinkRemoved(index: 2)]),
                       [.pause(.outputRemoved(sink: usb.name))])
    }

    func testRemovingTheSinkWeWereJustMovedOffPauses() {
        // PulseAudio rescues the stream to the laptop sink, then reports the USB sink gone.
        XCTAssertEqual(decisions([.sink(laptop), .sink(usb), .stream(index: 9, sink: 2), .stream(index: 9, sink: 1),
                                  .defaultSink(name: laptop.name), .sinkRemoved(index: 2)]),
                       [.pause(.outputRemoved(sink: usb.name))])
    }

    func testRemovingAnotherSinkDoesNotPause() {
        XCTAssertEqual(decisions([.sink(laptop), .sink(usb), .stream(index: 9, sink: 1), .sinkRemoved(index: 2)]), [])
    }

    func testNewDefaultSinkDoesNotPause() {
        // A USB DAC plugged in becomes the default and module-switch-on-connect moves us onto it.
        XCTAssertEqual(decisions([.sink(laptop), .stream(index: 9, sink: 1), .sink(usb),
                                  .defaultSink(name: usb.name), .stream(index: 9, sink: 2)]), [])
    }

    func testAnOldMoveDoesNotMakeALaterRemovalOurs() {
        XCTAssertEqual(decisions([.sink(laptop), .sink(usb), .stream(index: 9, sink: 1), .stream(index: 9, sink: 2),
                                  .stream(index: 9, sink: 1), .stream(index: 9, sink: 2), .sinkRemoved(index: 1)]),
                       [.pause(.outputRemoved(sink: laptop.name))],  // the last move was off 1: that removal is ours
                       "sanity: the sink last moved off still counts")
        XCTAssertEqual(decisions([.sink(laptop), .sink(usb), .sink(SinkInfo(index: 3, name: "hdmi", activePort: nil)),
                                  .stream(index: 9, sink: 1), .stream(index: 9, sink: 2), .stream(index: 9, sink: 3),
                                  .sinkRemoved(index: 1)]), [])
    }

    func testAfterOurStreamEndsNothingIsOurs() {
        XCTAssertEqual(decisions([.sink(usb), .stream(index: 9, sink: 2), .streamRemoved(index: 9),
                                  .sinkRemoved(index: 2)]), [])
    }
}

final class DecisionTests: XCTestCase {
    func testCorkDecisions() {
        var policies = DesktopPolicies()
        XCTAssertEqual(CorkDecision(began: true, policies: policies), .pause)
        XCTAssertEqual(CorkDecision(began: false, policies: policies), .resume)
        policies.resumeAfterCork = false
        XCTAssertEqual(CorkDecision(began: false, policies: policies), .stayPaused)
        policies.pauseOnCork = false
        XCTAssertEqual(CorkDecision(began: true, policies: policies), .ignore)
    }

    func testSleepStepsPauseAndSaveBeforeReleasing() {
        var policies = DesktopPolicies()
        XCTAssertEqual(SleepDecision.beforeSleep(playing: true, policies: policies), [.pause, .saveState, .releaseLock])
        XCTAssertEqual(SleepDecision.beforeSleep(playing: false, policies: policies), [.saveState, .releaseLock])
        XCTAssertEqual(SleepDecision.afterWake(pausedForSleep: true, policies: policies), .stayPaused)
        XCTAssertEqual(SleepDecision.afterWake(pausedForSleep: false, policies: policies), .nothing)
        policies.resumeAfterWake = true
        XCTAssertEqual(SleepDecision.afterWake(pausedForSleep: true, policies: policies), .resume)
        policies.pauseOnSuspend = false
        XCTAssertEqual(SleepDecision.beforeSleep(playing: true, policies: policies), [.releaseLock])
    }

    func testLockOnlyWhilePlaying() {
        let policies = DesktopPolicies()
        XCTAssertTrue(SleepDecision.wantsLock(status: .playing, policies: policies))
        XCTAssertFalse(SleepDecision.wantsLock(status: .paused, policies: policies))
        var off = policies
        off.pauseOnSuspend = false
        XCTAssertFalse(SleepDecision.wantsLock(status: .playing, policies: off))
    }

    func testOtherPlayerPolicy() {
        XCTAssertTrue(OtherPlayerPolicy.startedPlaying(sender: ":1.5", status: "Playing", ownName: ":1.2", playerctld: ":1.9"))
        XCTAssertFalse(OtherPlayerPolicy.startedPlaying(sender: ":1.5", status: "Paused", ownName: ":1.2", playerctld: nil))
        XCTAssertFalse(OtherPlayerPolicy.startedPlaying(sender: ":1.5", status: nil, ownName: ":1.2", playerctld: nil))
        XCTAssertFalse(OtherPlayerPolicy.startedPlaying(sender: ":1.2", status: "Playing", ownName: ":1.2", playerctld: nil))
        XCTAssertFalse(OtherPlayerPolicy.startedPlaying(sender: ":1.9", status: "Playing", ownName: ":1.2", playerctld: ":1.9"))
    }
}
