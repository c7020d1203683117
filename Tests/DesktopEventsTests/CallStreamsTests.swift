@testable import DesktopEvents
import PulseAudio
import XCTest

/// When a call begins and ends, from recorded stream changes.
final class CallStreamsTests: XCTestCase {
    var calls = CallStreams(processID: "100")

    func stream(_ index: UInt32, role: String?, corked: Bool = false, pid: String = "200") -> SoundStream {
        var properties = ["application.process.id": pid]
        properties["media.role"] = role
        return SoundStream(index: index, device: 0, properties: properties, corked: corked)
    }

    func testAPhoneStreamBeginsAndItsRemovalEnds() {
        XCTAssertEqual(calls.handle(.playbackStream(stream(1, role: "phone"))), .began)
        XCTAssertEqual(calls.handle(.playbackStream(stream(1, role: "phone"))), nil, "a change of the same stream")
        XCTAssertEqual(calls.handle(.playbackStreamRemoved(index: 1)), .ended)
    }

    func testTheCallEndsWithItsLastStream() {
        XCTAssertEqual(calls.handle(.playbackStream(stream(1, role: "phone"))), .began)
        XCTAssertEqual(calls.handle(.recordingStream(stream(1, role: "phone"))), nil, "the microphone: same index, other kind")
        XCTAssertEqual(calls.handle(.playbackStreamRemoved(index: 1)), nil)
        XCTAssertEqual(calls.handle(.recordingStreamRemoved(index: 1)), .ended)
    }

    func testCorkingAndUncorkingACallStream() {
        XCTAssertEqual(calls.handle(.playbackStream(stream(1, role: "phone", corked: true))), nil, "a held call makes no sound")
        XCTAssertEqual(calls.handle(.playbackStream(stream(1, role: "phone"))), .began)
        XCTAssertEqual(calls.handle(.playbackStream(stream(1, role: "phone", corked: true))), .ended)
    }

    func testOtherRolesOurOwnStreamsAndRolelessStreamsAreNotCalls() {
        for role in ["event", "a11y", "music", "video", "notification"] {
            XCTAssertNil(calls.handle(.playbackStream(stream(1, role: role))), role)
        }
        XCTAssertNil(calls.handle(.playbackStream(stream(2, role: nil))))
        XCTAssertNil(calls.handle(.playbackStream(stream(3, role: "phone", pid: "100"))))
        XCTAssertFalse(calls.isCallRunning)
    }

    func testTheServerGoingAwayEndsTheCall() {
        XCTAssertEqual(calls.handle(.recordingStream(stream(4, role: "phone"))), .began)
        XCTAssertEqual(calls.handle(.disconnected), .ended)
        XCTAssertNil(calls.handle(.connected))
    }
}
