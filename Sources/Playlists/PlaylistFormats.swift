/// `.m3u` / `.m3u8`: a reference per line; `#` starts a comment, `#EXTINF` describes the next reference.
enum M3U {
    static func entries(_ lines: [Substring], _ resolver: ReferenceResolver) -> MediaList {
        var list = MediaList()
        var info: (lengthSeconds: Int?, title: String?)?
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingASCIIWhitespace()
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if line.uppercased().hasPrefix("#EXTINF:") { info = extinf(line.dropFirst("#EXTINF:".count)) }
                continue
            }
            list.append(resolver.resolve(line, line: index + 1, title: info?.title, lengthSeconds: info?.lengthSeconds))
            info = nil
        }
        return list
    }

    /// `#EXTINF:<seconds> [attributes],<title>`. The title starts after the first comma outside
    /// quotes (IPTV lists put quoted `key="a,b"` attributes before it); `-1` seconds means unknown.
    static func extinf(_ text: Substring) -> (lengthSeconds: Int?, title: String?) {
        var quoted = false
        let comma = text.firstIndex { character in
            if character == "\"" { quoted.toggle() }
            return character == "," && !quoted
        }
        let head = text[..<(comma ?? text.endIndex)]
        let seconds = head.split(separator: " ").first.flatMap { Double($0) }.flatMap { $0 > 0 ? Int($0.rounded()) : nil }
        let title = comma.map { text[text.index(after: $0)...].trimmingASCIIWhitespace() }
        return (seconds, title?.isEmpty == false ? title : nil)
    }
}

/// `.pls`: `[playlist]`, then `FileN=`, `TitleN=`, `LengthN=` keys (case ignored), `NumberOfEntries`,
/// `Version`. Entries are played in the order of N. `NumberOfEntries` is not trusted (writers get it
/// wrong): every `FileN` present counts, whatever it says.
enum PLS {
    private struct Item {
        var reference: String?
        var line = 0
        var title: String?
        var lengthSeconds: Int?
    }

    static func entries(_ lines: [Substring], _ resolver: ReferenceResolver) -> MediaList {
        var items: [Int: Item] = [:]
        for (index, raw) in lines.enumerated() {
            guard let equals = raw.firstIndex(of: "=") else { continue }  // `[playlist]`, blank, comments
            let key = raw[..<equals].trimmingASCIIWhitespace().lowercased()
            let value = raw[raw.index(after: equals)...].trimmingASCIIWhitespace()
            guard let (name, number) = numberedKey(key) else { continue }
            switch name {
            case "file": items[number, default: Item()].reference = value; items[number]!.line = index + 1
            case "title": items[number, default: Item()].title = value.isEmpty ? nil : value
            case "length": items[number, default: Item()].lengthSeconds = Int(value).flatMap { $0 > 0 ? $0 : nil }
            default: continue
            }
        }
        var list = MediaList()
        for (_, item) in items.sorted(by: { $0.key < $1.key }) {
            guard let reference = item.reference else { continue }  // a title without a file
            list.append(resolver.resolve(reference, line: item.line, title: item.title, lengthSeconds: item.lengthSeconds))
        }
        return list
    }

    /// `file12` → (`file`, 12); keys without a number (`numberofentries`, `version`) → nil.
    private static func numberedKey(_ key: String) -> (String, Int)? {
        guard let firstDigit = key.firstIndex(where: { $0.isASCII && $0.isNumber }) else { return nil }
        guard let number = Int(key[firstDigit...]) else { return nil }
        return (String(key[..<firstDigit]), number)
    }
}
