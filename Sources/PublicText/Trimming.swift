extension StringProtocol {
    /// The text without the white space (newlines included) at either end: what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gave, without Foundation (and its ICU) in the programs.
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[first...last])
    }
}
