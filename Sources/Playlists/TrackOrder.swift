import ControlAPI
/// Album order once tags are known: disc, then track number, then natural file name.
///
/// A missing disc number counts as disc 1 (single-disc albums rarely tag it, and their tracks must
/// not sort apart from a tagged disc 1). Tracks without a number come after the numbered ones of
/// their disc, in natural file-name order.
public struct TrackSortKey: Comparable, Sendable {
    public let disc: Int
    public let track: Int?
    public let name: NaturalSortKey

    public init(disc: Int?, track: Int?, fileName: String) {
        self.disc = disc ?? 1
        self.track = track
        self.name = NaturalSortKey(fileName)
    }

    public static func < (a: TrackSortKey, b: TrackSortKey) -> Bool {
        if a.disc != b.disc { return a.disc < b.disc }
        switch (a.track, b.track) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.name < b.name
        }
    }
}

public enum TrackOrder {
    /// Reorders `items` by `TrackSortKey` inside each run of consecutive items from the same folder
    /// (the URI up to its last `/`), leaving the order of the runs as it is: a folder expansion keeps
    /// its folder order and each album gets its disc and track order. Items that compare equal keep
    /// their order. `disc` and `track` come from the tags (`nil` when unknown).
    public static func sortedWithinFolders<Item>(_ items: [Item], uri: (Item) -> String,
                                                 disc: (Item) -> Int?, track: (Item) -> Int?) -> [Item] {
        var result: [Item] = []
        result.reserveCapacity(items.count)
        var start = 0
        while start < items.count {
            let folder = split(uri(items[start])).folder
            var end = start + 1
            while end < items.count && split(uri(items[end])).folder == folder { end += 1 }
            let keyed = items[start..<end].enumerated().map { offset, item in
                (key: TrackSortKey(disc: disc(item), track: track(item), fileName: split(uri(item)).name),
                 offset: offset, item: item)
            }
            result += keyed.sorted { $0.key < $1.key || (!($1.key < $0.key) && $0.offset < $1.offset) }.map(\.item)
            start = end
        }
        return result
    }

    /// The folder part of a URI and its last component, percent-decoded for `file:` URIs.
    private static func split(_ uri: String) -> (folder: Substring, name: String) {
        guard let slash = uri.lastIndex(of: "/") else { return ("", uri) }
        let name = uri[uri.index(after: slash)...]
        let decoded = FileURI.pathBytes(fromURI: "file:///" + name).map { String(decoding: $0.dropFirst(), as: UTF8.self) }
        return (uri[..<slash], decoded ?? String(name))
    }
}
