extension PublicText {
    /// `text` with `&`, `<`, `>` and `"` written as XML's entities, for text placed inside markup that others
    /// parse: D-Bus introspection XML, or a desktop notification's body (the spec's small subset of HTML),
    /// where a tag such as `Tom & Jerry <live>` would otherwise be read as markup or break it.
    public static func escapingMarkup(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
                                          || $0 == UInt8(ascii: "\"") }) else { return text }
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
