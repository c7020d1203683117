import CShims
import XCTest

/// Every program of ours leaves GLib's slices to malloc (CShims, run from the executable's DT_PREINIT_ARRAY before
/// GLib's own initialiser): the test executable links the same C, so it shows here. Fails when the setting comes too
/// late (GLib reads its slice settings once, at the first slice, before main; setting G_SLICE in main did nothing).
final class GLibSliceTests: XCTestCase {
    func testGLibSlicesAreLeftToMalloc() throws {
        guard ProcessInfo.processInfo.environment["G_SLICE"] == nil else { throw XCTSkip("G_SLICE is set: GLib follows it") }
        XCTAssertEqual(quaver_glib_slices_use_malloc(), 1)
    }
}
