// TerminalText: text made safe to print on a terminal, JSON and `--format` output for the CLI. Pure Swift:
// may import Foundation only.
/// Text from outside Quaver (tags, stream titles, file names, URLs, the daemon's error text) made safe to
/// print on a terminal. Terminals act on control characters: ESC and the C1 controls start sequences that
/// retitle the window, clear the screen, recolour it or write the clipboard; BEL rings; carriage returns and
/// backspaces overwrite what was printed. Bidirectional overrides and isolates (U+202E …) reorder what the
/// reader sees without changing the bytes. Each such character is replaced by a visible placeholder, so the
/// user sees that the text held one, and nothing acts on it.
public enum InertText {
    /// `text` with every control, bidi-formatting and line-separator character replaced: C0 controls and
    /// DEL by their Unicode control pictures (ESC → ␛, BEL → ␇), the others by `<U+XXXX>`. With
    /// `keepingNewlines`, line feeds stay (for multi-line messages of our own that quote outside text).
    public static func of(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isActive($0, keepingNewlines) }) else { return text }
        var inert = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isActive(scalar, keepingNewlines) {
                inert.append(contentsOf: placeholder(for: scalar).unicodeScalars)
            } else {
                inert.append(scalar)
            }
        }
        return String(inert)
    }

    /// True for the characters a terminal acts on or that change the visible order or lines of text.
    public static func isActive(_ scalar: Unicode.Scalar, _ keepingNewlines: Bool = false) -> Bool {
        switch scalar.value {
        case 0x0A: return !keepingNewlines
        case 0x00...0x1F, 0x7F...0x9F: return true
        // Arabic letter mark, LRM, RLM; LRE/RLE/PDF/LRO/RLO; LRI/RLI/FSI/PDI; line and paragraph separators.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
        default: return false
        }
    }

    static func placeholder(for scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x00...0x1F: return String(Unicode.Scalar(0x2400 + scalar.value)!)
        case 0x7F: return "\u{2421}"
        default: return "<U+" + hex(scalar.value, digits: 4) + ">"
        }
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
