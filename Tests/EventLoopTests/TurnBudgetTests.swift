import EventLoop
import XCTest

/// `TurnBudget` sizes slices of long work by the pace of the ones before, on a clock the test turns.
final class TurnBudgetTests: XCTestCase {
    private final class Clock {
        var now: Int64 = 0
    }

    /// One slice of `size` items at `microsecondsPerItem`; returns how many the budget gave it.
    private func run(_ budget: inout TurnBudget, _ clock: Clock, microsecondsPerItem: Int64) -> Int {
        budget.slice { size in
            clock.now += Int64(size) * microsecondsPerItem
            return (size, size)
        }
    }

    func testSlowItemsMakeSlicesThatFitTheTarget() {
        let clock = Clock()
        var budget = TurnBudget(target: 4_000, maximum: 1_000, first: 1_000, clock: { clock.now })
        XCTAssertEqual(run(&budget, clock, microsecondsPerItem: 40), 1_000, "the first slice knows no pace yet")
        XCTAssertEqual(budget.size, 100, "4 ms at 40 µs an item")
        XCTAssertEqual(run(&budget, clock, microsecondsPerItem: 40), 100)
        XCTAssertEqual(budget.size, 100)
    }

    func testFastItemsGrowTheSliceAtMostTwofoldUpToTheMaximum() {
        let clock = Clock()
        var budget = TurnBudget(target: 4_000, maximum: 2_000, first: 256, clock: { clock.now })
        var sizes: [Int] = []
        for _ in 0..<5 { sizes.append(run(&budget, clock, microsecondsPerItem: 1)) }
        XCTAssertEqual(sizes, [256, 512, 1_024, 2_000, 2_000])
    }

    func testNeverBelowTheMinimumNorAdjustedByAnEmptySlice() {
        let clock = Clock()
        var budget = TurnBudget(target: 4_000, minimum: 32, maximum: 1_000, first: 256, clock: { clock.now })
        _ = run(&budget, clock, microsecondsPerItem: 10_000)
        XCTAssertEqual(budget.size, 32, "even items slower than the target go 32 at a time")
        budget.slice { _ in (0, ()) }
        XCTAssertEqual(budget.size, 32, "a slice that did nothing says nothing of the pace")
        var instant = TurnBudget(maximum: 1_000, first: 256, clock: { 0 })
        _ = run(&instant, Clock(), microsecondsPerItem: 0)
        XCTAssertEqual(instant.size, 512, "a slice too fast to time grows as fast as allowed")
    }
}
