/// TOML's numbers (https://toml.io/en/v1.0.0#integer, #float): `1_000`, `-3`, `0x1F`, `0o17`, `0b101`, `2.5`,
/// `1e6`, `inf`, `nan`. Underscores only between digits, no leading zeros, digits on both sides of a point.
enum TOMLNumber {
    static func value(of word: String) -> TOMLValue? {
        switch word {
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        if let radix = prefixedRadix(word) { return Int(digits(word.dropFirst(2)) ?? "", radix: radix).map(TOMLValue.integer) }
        guard let plain = digits(word[...]) else { return nil }
        let unsigned = plain.drop { $0 == "+" || $0 == "-" }
        guard let first = unsigned.first, first.isNumber, !unsigned.hasPrefix("0") || unsigned.count == 1
                || unsigned.dropFirst().first.map({ $0 == "." || $0 == "e" || $0 == "E" }) == true else { return nil }
        if plain.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            guard !plain.contains(".e"), !plain.contains(".E"), plain.last?.isNumber == true else { return nil }
            return Double(plain).map(TOMLValue.float)
        }
        return Int(plain).map(TOMLValue.integer)
    }

    private static func prefixedRadix(_ word: String) -> Int? {
        switch word.prefix(2) {
        case "0x": 16
        case "0o": 8
        case "0b": 2
        default: nil
        }
    }

    /// `text` without its underscores, when each stands between two digits; nil otherwise.
    private static func digits(_ text: Substring) -> String? {
        let characters = Array(text)
        for (index, character) in characters.enumerated() where character == "_" {
            guard index > 0, index < characters.count - 1, characters[index - 1].isHexDigit,
                  characters[index + 1].isHexDigit else { return nil }
        }
        return String(characters.filter { $0 != "_" })
    }
}
