/// Times as users read and type them. MPRIS counts in microseconds (docs/mpris.md, "Times").
enum TimeText {
    /// `3:07`, or `1:02:03` past an hour.
    static func format(microseconds: Int64) -> String {
        let total = max(0, microseconds / 1_000_000)
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        let ss = seconds < 10 ? "0\(seconds)" : "\(seconds)"
        if hours > 0 { return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(ss)" }
        return "\(minutes):\(ss)"
    }

    /// A seek target: `+N` and `-N` are relative, `N` (seconds, decimals allowed), `m:ss` and `h:mm:ss` absolute.
    enum SeekTarget: Equatable {
        case relative(Int64)
        case absolute(Int64)
    }

    static func parseSeek(_ text: String) -> SeekTarget? {
        if let sign = text.first, sign == "+" || sign == "-" {
            return parseClock(String(text.dropFirst())).map { .relative(sign == "-" ? -$0 : $0) }
        }
        return parseClock(text).map { .absolute($0) }
    }

    /// `N`, `m:ss` or `h:mm:ss` in microseconds; nil for anything else.
    static func parseClock(_ text: String) -> Int64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let last = Double(parts.last!), last >= 0, last.isFinite else { return nil }
        var minutes = 0.0  // hours and minutes folded into minutes
        for part in parts.dropLast() {
            guard let whole = Int(part), whole >= 0 else { return nil }
            minutes = minutes * 60 + Double(whole)
        }
        let seconds = minutes * 60 + last
        return Int64((seconds * 1_000_000).rounded())
    }

    /// A span such as `30m`, `1h15m`, `90s` or `1h` in whole seconds; a bare number counts minutes.
    static func parseSpan(_ text: String) -> Int64? {
        if let minutes = Int64(text) { return minutes.multipliedReportingOverflow(by: 60).overflow ? nil : minutes * 60 }
        var total: Int64 = 0, digits = "", units: [Character] = []
        for character in text {
            if character.isASCII, character.isNumber { digits.append(character); continue }
            guard let factor = ["h": Int64(3600), "m": 60, "s": 1][character], !units.contains(character),
                  let number = Int64(digits), number <= 1_000_000 else { return nil }
            units.append(character)
            total += number * factor
            digits = ""
        }
        return digits.isEmpty && !units.isEmpty ? total : nil
    }
}
