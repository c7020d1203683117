/// "Natural" file-name order, as file managers show it: `track2` before `track10`, case ignored.
///
/// Runs of ASCII digits compare by their numeric value (any length: leading zeros are skipped and
/// longer runs are larger, so no integer overflow); everything else compares by lowercased Unicode
/// scalar. Names equal under these rules (`01` and `1`, `A` and `a`) fall back to plain byte order,
/// so the order is total and sorting is deterministic.
public struct NaturalSortKey: Comparable, Sendable {
    private let folded: [UInt32]
    private let original: [UInt8]

    public init(_ name: String) {
        folded = name.lowercased().unicodeScalars.map(\.value)
        original = Array(name.utf8)
    }

    public static func == (a: NaturalSortKey, b: NaturalSortKey) -> Bool {
        a.original == b.original
    }

    public static func < (a: NaturalSortKey, b: NaturalSortKey) -> Bool {
        switch compareFolded(a.folded, b.folded) {
        case .some(let aFirst): return aFirst
        case .none: return a.original.lexicographicallyPrecedes(b.original)
        }
    }

    /// Whether `a` sorts first, or `nil` when the two are equal under natural order.
    private static func compareFolded(_ a: [UInt32], _ b: [UInt32]) -> Bool? {
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                let runA = digitRun(a, from: i), runB = digitRun(b, from: j)
                if let order = compareNumbers(a[runA.significant], b[runB.significant]) { return order }
                i = runA.end
                j = runB.end
            } else {
                if a[i] != b[j] { return a[i] < b[j] }
                i += 1
                j += 1
            }
        }
        let restA = a.count - i, restB = b.count - j
        return restA == restB ? nil : restA < restB
    }

    /// The digits starting at `start`: where the run ends, and its digits without leading zeros.
    private static func digitRun(_ scalars: [UInt32], from start: Int) -> (end: Int, significant: Range<Int>) {
        var end = start
        while end < scalars.count && isDigit(scalars[end]) { end += 1 }
        var first = start
        while first < end - 1 && scalars[first] == zero { first += 1 }
        return (end, first..<end)
    }

    private static func compareNumbers(_ a: ArraySlice<UInt32>, _ b: ArraySlice<UInt32>) -> Bool? {
        if a.count != b.count { return a.count < b.count }
        for (x, y) in zip(a, b) where x != y { return x < y }
        return nil
    }

    private static let zero = UInt32(UInt8(ascii: "0"))
    private static func isDigit(_ scalar: UInt32) -> Bool { scalar &- zero < 10 }
}

/// Whether `a` comes before `b` in natural order; see `NaturalSortKey`.
public func naturallyPrecedes(_ a: String, _ b: String) -> Bool {
    NaturalSortKey(a) < NaturalSortKey(b)
}
