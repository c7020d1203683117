@testable import QuaverCLI
import XCTest

/// Dates and sizes the CLI prints, written by strftime and by hand since DateFormatter and String(format:)
/// went with full Foundation.
final class CalendarTextTests: XCTestCase {
    func testTimesInUTCAndInTheUsersZone() {
        XCTAssertEqual(UTCText.minutes(1_795_000_000), "2026-11-18 11:06 UTC")
        setenv("TZ", "Europe/Paris", 1)
        tzset()
        defer { unsetenv("TZ"); tzset() }
        XCTAssertEqual(LibraryStatus.date(1_795_000_000), "2026-11-18 12:06:40")
    }

    func testSizesInMiBAndGiBWithOneDecimal() {
        XCTAssertEqual(LibraryStatus.size(0), "0.0 MiB")
        XCTAssertEqual(LibraryStatus.size(1_572_864), "1.5 MiB")
        XCTAssertEqual(LibraryStatus.size(1 << 30 - 1), "1024.0 MiB")
        XCTAssertEqual(LibraryStatus.size(3 << 30 + 104_857_600), "3.1 GiB")
    }
}
