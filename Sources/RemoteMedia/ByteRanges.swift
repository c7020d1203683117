/// Which bytes of a file are present: sorted, disjoint, non-adjacent half-open ranges.
struct ByteRanges: Equatable, Codable {
    private(set) var ranges: [Range<UInt64>] = []

    init(_ ranges: [Range<UInt64>] = []) {
        for range in ranges { insert(range) }
    }

    var byteCount: UInt64 { ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) } }
    func byteCount(in window: Range<UInt64>) -> UInt64 {
        ranges.reduce(0) { $0 + UInt64($1.clamped(to: window).count) }
    }
    var end: UInt64 { ranges.last?.upperBound ?? 0 }

    mutating func insert(_ new: Range<UInt64>) {
        guard !new.isEmpty else { return }
        var merged = new
        var kept: [Range<UInt64>] = []
        for range in ranges {
            if range.upperBound < merged.lowerBound || range.lowerBound > merged.upperBound {
                kept.append(range)
            } else {
                merged = min(range.lowerBound, merged.lowerBound)..<max(range.upperBound, merged.upperBound)
            }
        }
        kept.append(merged)
        ranges = kept.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Forgets the bytes of `gone` (they are given back to the disk).
    mutating func remove(_ gone: Range<UInt64>) {
        guard !gone.isEmpty else { return }
        ranges = ranges.flatMap { range -> [Range<UInt64>] in
            guard range.overlaps(gone) else { return [range] }
            return [range.lowerBound..<max(range.lowerBound, gone.lowerBound),
                    min(range.upperBound, gone.upperBound)..<range.upperBound].filter { !$0.isEmpty }
        }
    }

    /// Where the present bytes starting at `offset` end; `offset` itself when that byte is missing.
    func availableEnd(from offset: UInt64) -> UInt64 {
        ranges.first { $0.contains(offset) }?.upperBound ?? offset
    }

    func covers(_ range: Range<UInt64>) -> Bool {
        range.isEmpty || availableEnd(from: range.lowerBound) >= range.upperBound
    }

    /// The first missing range at or after `offset` in a file of `length` bytes, else the first one
    /// before it; `nil` when the file is complete.
    func firstGap(from offset: UInt64, length: UInt64) -> Range<UInt64>? {
        gap(startingAt: availableEnd(from: min(offset, length)), length: length)
            ?? gap(startingAt: availableEnd(from: 0), length: length)
    }

    /// The first missing range at or after `offset`; `nil` when every byte from there on is present.
    func gapAhead(from offset: UInt64, length: UInt64) -> Range<UInt64>? {
        gap(startingAt: availableEnd(from: min(offset, length)), length: length)
    }

    private func gap(startingAt start: UInt64, length: UInt64) -> Range<UInt64>? {
        guard start < length else { return nil }
        let next = ranges.first { $0.lowerBound > start }?.lowerBound ?? length
        return start..<min(next, length)
    }
}
