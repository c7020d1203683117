/// How many items of long work (a batch of 20 000 URIs to check or queue) the next slice may take so that
/// it holds the loop about `target` microseconds, learnt from the slices before it.
///
/// A fixed count does not fit every machine or every item: 1 000 files looked up on disk took 8 to 38 ms
/// a slice (release build, 2 cores under load), and a client calling meanwhile waited for all of it. The
/// next slice takes as many items as the last one's pace fits in `target`, between `minimum` and `maximum`;
/// it grows by at most a factor of 2 a slice, so one fast slice (files in the page cache) does not make
/// the next one a long one.
public struct TurnBudget {
    public let target: Int64
    public let minimum: Int
    public let maximum: Int
    /// The number of items the next slice may take.
    public private(set) var size: Int
    private let clock: () -> Int64

    /// - Parameter clock: microseconds on a monotonic clock (tests pass their own).
    public init(target: Int64 = 4_000, minimum: Int = 32, maximum: Int, first: Int = 256,
                clock: @escaping () -> Int64 = { EventLoop.monotonicMicroseconds }) {
        self.target = target
        self.minimum = min(minimum, maximum)
        self.maximum = maximum
        self.size = max(self.minimum, min(first, maximum))
        self.clock = clock
    }

    /// Runs one slice (`body` returns how many items it did) and sizes the next one by its pace.
    public mutating func slice<Result>(_ body: (_ size: Int) throws -> (done: Int, result: Result)) rethrows -> Result {
        let start = clock()
        let (done, result) = try body(size)
        adjust(done: done, took: clock() - start)
        return result
    }

    private mutating func adjust(done: Int, took: Int64) {
        guard done > 0 else { return }
        let fitting = took > 0 ? Int(min(Int64(maximum), Int64(done) * target / took)) : maximum
        size = max(minimum, min(fitting, size * 2, maximum))
    }
}
