@testable import DBus
import XCTest

/// Which message may leave when others are still being built off the loop: messages to one destination,
/// and signals (to everyone), never overtake one another; a message to someone else does.
final class OutgoingOrderTests: XCTestCase {
    func testNothingWaitingLetsEverythingGo() {
        var order = OutgoingOrder<String>()
        XCTAssertEqual(order.admit("a", to: ":1.5"), "a")
        XCTAssertEqual(order.admit("signal", to: nil), "signal")
        XCTAssertTrue(order.isEmpty)
    }

    func testAReplyBeingBuiltHoldsSignalsAndItsCallerButNotOthers() {
        var order = OutgoingOrder<String>()
        let big = order.reserve(to: ":1.5")
        XCTAssertNil(order.admit("signal 1", to: nil))
        XCTAssertEqual(order.admit("to another caller", to: ":1.9"), nil, "held: the signal before it waits")
        var other = OutgoingOrder<String>()
        let alone = other.reserve(to: ":1.5")
        XCTAssertEqual(other.admit("to another caller", to: ":1.9"), "to another caller")
        XCTAssertNil(other.admit("to the same caller", to: ":1.5"))
        XCTAssertEqual(other.fill(alone, with: "big reply"), ["big reply", "to the same caller"])
        XCTAssertTrue(other.isEmpty)
        XCTAssertEqual(order.fill(big, with: "big reply"), ["big reply", "signal 1", "to another caller"])
    }

    func testASignalBeingBuiltHoldsEverythingAfterItAndFailedBuildsFreeTheirPlace() {
        var order = OutgoingOrder<String>()
        let first = order.reserve(to: nil)
        let second = order.reserve(to: ":1.5")
        XCTAssertNil(order.admit("reply", to: ":1.7"))
        XCTAssertEqual(order.fill(second, with: "second"), [], "the first is still being built")
        XCTAssertEqual(order.fill(first, with: nil), ["second", "reply"])
        XCTAssertTrue(order.isEmpty)
        XCTAssertEqual(order.fill(first, with: "again"), [], "a ticket is filled once")
    }
}
