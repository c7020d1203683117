import FoundationEssentials

/// A user's search, parsed: words matched as prefixes anywhere (or in one field with `field:`), and a year
/// range. The text never reaches SQL as SQL: each word becomes a quoted FTS5 string (its `"` doubled), and
/// the FTS5 expression and the years are bound as values. Punctuation is not searched (the index's tokenizer
/// drops it too), so no query is an FTS5 syntax error.
///
/// Syntax: `simon gar` (every word of two letters or more as a prefix, a single letter as a whole word, in any
/// searched field), `"kind of blue"` (quoted words stay together as one value), `artist:`, `album:`,
/// `albumartist:`, `title:`, `genre:`, `composer:` before a word or a quoted value, `year:1970` and `year:1970..1979`.
public struct SearchQuery: Equatable, Sendable {
    /// The FTS5 expression; nil when the query has no words (everything matches).
    public let textMatch: String?
    public let years: ClosedRange<Int>?

    /// Field names users type, and the FTS5 columns they search.
    static let fields = ["title": "title", "artist": "artists", "album": "album", "albumartist": "album_artist",
                         "composer": "composer", "genre": "genre", "file": "file_name"]

    /// A query reads at most this many terms, of at most `maximumTextLength` characters: query text comes from
    /// anyone on the bus, and a megabyte of words would make one huge full-text expression.
    static let maximumTerms = 32
    static let maximumTextLength = 1000

    /// A shorter word is matched whole, not as a prefix. The index keeps prefixes of 2 and 3 characters
    /// (`prefix='2 3'`); one letter as a prefix (GNOME Shell asks as the user types `s`) merged the lists of every
    /// word starting with it and listed all 100 000 tracks for one page: 6 ms to count them, 10 to 12 ms for the page
    /// (CPU, sqlite3, 100 000 tracks), where the whole word `s` takes 0.03 ms.
    static let minimumPrefixLength = 2

    public init(_ text: String) {
        var clauses: [String] = []
        var years: ClosedRange<Int>?
        for term in Self.terms(of: String(text.prefix(Self.maximumTextLength))).prefix(Self.maximumTerms) {
            if term.field == "year", let range = Self.yearRange(term.value) {
                years = range
            } else if let clause = Self.clause(term) {
                clauses.append(clause)
            }
        }
        textMatch = clauses.isEmpty ? nil : clauses.joined(separator: " AND ")
        self.years = years
    }

    public var matchesEverything: Bool { textMatch == nil && years == nil }

    struct Term: Equatable {
        var field: String?
        var value: String
    }

    /// Splits on white space outside double quotes; `field:` is recognised at the start of a term.
    static func terms(of text: String) -> [Term] {
        var terms: [Term] = []
        var current = "", quoted = false
        func finish() {
            if !current.isEmpty { terms.append(term(current)) }
            current = ""
        }
        for character in text {
            if character == "\"" { quoted.toggle(); current.append(character) }
            else if character.isWhitespace && !quoted { finish() }
            else { current.append(character) }
        }
        finish()
        return terms
    }

    private static func term(_ raw: String) -> Term {
        if let colon = raw.firstIndex(of: ":") {
            let name = raw[..<colon].lowercased()
            if name == "year" || fields[name] != nil {
                return Term(field: name, value: unquoted(String(raw[raw.index(after: colon)...])))
            }
        }
        return Term(field: nil, value: unquoted(raw))
    }

    private static func unquoted(_ text: String) -> String { text.filter { $0 != "\"" } }

    /// `("kind"* AND "blue"*)`, with a column filter for a field; nil when the value has no word in it.
    private static func clause(_ term: Term) -> String? {
        let words = term.value.split { !($0.isLetter || $0.isNumber) }.prefix(maximumTerms).map(String.init)
        guard !words.isEmpty else { return nil }
        // Words hold letters and digits only, so none can end its quotes or be FTS5 syntax.
        let phrases = words.map { "\"" + $0 + "\"" + ($0.count >= minimumPrefixLength ? "*" : "") }
        let expression = "(" + phrases.joined(separator: " AND ") + ")"
        guard let field = term.field, let column = fields[field] else { return expression }
        return "{\(column)} : " + expression
    }

    /// `1970` or `1970..1979`.
    static func yearRange(_ text: String) -> ClosedRange<Int>? {
        let parts = text.components(separatedBy: "..")
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, let first = numbers.first, let last = numbers.last,
              parts.count <= 2, first <= last else { return nil }
        return first...last
    }
}
