import XCTest
@testable import PlayerCore

/// A 100 000-track queue costs 100 000 slots: a field added to `QueueSlot` without packing it with the
/// others costs 800 kB there, which this makes a conscious choice.
final class QueueSlotLayoutTests: XCTestCase {
    func testASlotIsFortyBytes() {
        XCTAssertEqual(MemoryLayout<QueueSlot>.stride, 40)
    }
}
