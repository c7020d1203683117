/// A TOML syntax error: the 1-based line and what is wrong there.
struct TOMLSyntaxError: Error, Equatable {
    let line: Int
    let message: String
}

/// Reads TOML 1.0 text (https://toml.io/en/v1.0.0) into a table: comments, `[table]` headers, bare, quoted and
/// dotted keys, basic and literal strings, integers (decimal, 0x, 0o, 0b), floats, booleans, arrays and inline
/// tables. Multi-line strings, arrays of tables and dates are refused with their line: no setting takes them.
/// Ours rather than TOMLKit: that wraps the C++ toml++ and imports Foundation's Calendar, which brought
/// libstdc++, full Foundation and ICU's data into quaverd for a file of 40 keys.
struct TOMLReader {
    private let bytes: [UInt8]
    private var at = 0
    private var line = 1
    private var root = TOMLTable()
    /// The `[section]` being read, and every header seen (a header may appear once).
    private var section: [String] = []
    private var headers: Set<[String]> = []
    /// Arrays and inline tables open around the value being read: bounded, so that a file of `[[[[…` is refused
    /// instead of recursing until the stack runs out.
    private var depth = 0
    static let deepestNesting = 32

    static func table(from text: String) throws(TOMLSyntaxError) -> TOMLTable {
        var reader = TOMLReader(bytes: Array(text.utf8))
        try reader.readAll()
        return reader.root
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func readAll() throws(TOMLSyntaxError) {
        while true {
            skipBlankLines()
            guard let byte = peek() else { return }
            if byte == UInt8(ascii: "[") { try readHeader() } else { try readKeyValue() }
            try expectEndOfLine()
        }
    }

    private mutating func readHeader() throws(TOMLSyntaxError) {
        at += 1
        guard peek() != UInt8(ascii: "[") else { throw error("arrays of tables ([[…]]) are not used in Quaver's settings") }
        let path = try readKey()
        try expect("]", "expected ] after the table name")
        guard headers.insert(path).inserted else { throw error("[\(path.joined(separator: "."))] is defined twice") }
        if let problem = root.makeTable(at: path[...]) { throw error(problem) }
        section = path
    }

    private mutating func readKeyValue() throws(TOMLSyntaxError) {
        let path = try readKey()
        try expect("=", "expected = after the key")
        skipSpaces()
        let value = try readValue()
        if let problem = root.insert(value, at: (section + path)[...]) { throw error(problem) }
    }

    // MARK: Keys

    /// `a`, `"a b"`, `'a'`, or several joined by dots.
    private mutating func readKey() throws(TOMLSyntaxError) -> [String] {
        var path: [String] = []
        repeat {
            skipSpaces()
            path.append(try readSimpleKey())
            skipSpaces()
        } while take(".")
        return path
    }

    private mutating func readSimpleKey() throws(TOMLSyntaxError) -> String {
        switch peek() {
        case UInt8(ascii: "\""): return try readBasicString()
        case UInt8(ascii: "'"): return try readLiteralString()
        default:
            let start = at
            while let byte = peek(), byte.isBareKeyByte { at += 1 }
            guard at > start else { throw error("expected a key") }
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }
    }

    // MARK: Values

    private mutating func readValue() throws(TOMLSyntaxError) -> TOMLValue {
        guard depth < Self.deepestNesting else { throw error("arrays and tables nested deeper than \(Self.deepestNesting)") }
        depth += 1
        defer { depth -= 1 }
        switch peek() {
        case UInt8(ascii: "\""): return .string(try readBasicString())
        case UInt8(ascii: "'"): return .string(try readLiteralString())
        case UInt8(ascii: "["): return .array(try readArray())
        case UInt8(ascii: "{"): return .table(try readInlineTable())
        case nil: throw error("expected a value")
        default: return try readWord()
        }
    }

    private mutating func readArray() throws(TOMLSyntaxError) -> [TOMLValue] {
        at += 1
        var values: [TOMLValue] = []
        while true {
            skipBlankLines()
            if take("]") { return values }
            values.append(try readValue())
            skipBlankLines()
            if take("]") { return values }
            try expect(",", "expected , or ] in the array")
        }
    }

    private mutating func readInlineTable() throws(TOMLSyntaxError) -> TOMLTable {
        at += 1
        var table = TOMLTable()
        skipSpaces()
        if take("}") { return table }
        repeat {
            let path = try readKey()
            try expect("=", "expected = after the key")
            skipSpaces()
            if let problem = table.insert(try readValue(), at: path[...]) { throw error(problem) }
            skipSpaces()
        } while take(",")
        try expect("}", "expected , or } in the inline table")
        return table
    }

    /// `true`, `false`, a number, or (refused) a date.
    private mutating func readWord() throws(TOMLSyntaxError) -> TOMLValue {
        let start = at
        while let byte = peek(), byte.isBareKeyByte || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ":") { at += 1 }
        let word = String(decoding: bytes[start..<at], as: UTF8.self)
        if word == "true" || word == "false" { return .bool(word == "true") }
        if let number = TOMLNumber.value(of: word) { return number }
        if word.contains(":") || word.contains(where: { $0 == "-" }) && word.first?.isNumber == true {
            throw error("dates and times are not used in Quaver's settings: \(word)")
        }
        throw error(word.isEmpty ? "expected a value" : "\(word) is not a TOML value (is a string missing its quotes?)")
    }

    // MARK: Strings

    private mutating func readBasicString() throws(TOMLSyntaxError) -> String {
        guard !ahead("\"\"\"") else { throw error("multi-line strings are not used in Quaver's settings") }
        at += 1
        var text: [UInt8] = []
        while let byte = peek() {
            at += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"): text += try readEscape()
            case 0x0A: throw error("a string must end on the line it starts")
            case 0x00..<0x09, 0x0B..<0x20, 0x7F: throw error("control characters must be escaped in a string")
            default: text.append(byte)
            }
        }
        throw error("a string must end on the line it starts")
    }

    private mutating func readEscape() throws(TOMLSyntaxError) -> [UInt8] {
        guard let byte = peek() else { throw error("a string must end on the line it starts") }
        at += 1
        switch byte {
        case UInt8(ascii: "b"): return [0x08]
        case UInt8(ascii: "t"): return [0x09]
        case UInt8(ascii: "n"): return [0x0A]
        case UInt8(ascii: "f"): return [0x0C]
        case UInt8(ascii: "r"): return [0x0D]
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): return [byte]
        case UInt8(ascii: "u"): return try readUnicodeEscape(digits: 4)
        case UInt8(ascii: "U"): return try readUnicodeEscape(digits: 8)
        default: throw error("\\\(Character(Unicode.Scalar(byte))) is not an escape TOML knows")
        }
    }

    private mutating func readUnicodeEscape(digits: Int) throws(TOMLSyntaxError) -> [UInt8] {
        guard at + digits <= bytes.count,
              let code = UInt32(String(decoding: bytes[at..<at + digits], as: UTF8.self), radix: 16),
              let scalar = Unicode.Scalar(code) else { throw error("a \\u or \\U escape must name a Unicode scalar") }
        at += digits
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func readLiteralString() throws(TOMLSyntaxError) -> String {
        guard !ahead("'''") else { throw error("multi-line strings are not used in Quaver's settings") }
        at += 1
        let start = at
        while let byte = peek(), byte != UInt8(ascii: "'") {
            guard byte != 0x0A else { throw error("a string must end on the line it starts") }
            at += 1
        }
        guard peek() != nil else { throw error("a string must end on the line it starts") }
        at += 1
        return String(decoding: bytes[start..<at - 1], as: UTF8.self)
    }

    // MARK: Spaces, comments, lines

    private func peek() -> UInt8? { at < bytes.count ? bytes[at] : nil }

    private func ahead(_ text: String) -> Bool { bytes[at...].starts(with: text.utf8) }

    private mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(ascii: character) else { return false }
        at += 1
        return true
    }

    private mutating func expect(_ character: Unicode.Scalar, _ message: String) throws(TOMLSyntaxError) {
        skipSpaces()
        guard take(character) else { throw error(message) }
    }

    private mutating func skipSpaces() {
        while peek() == UInt8(ascii: " ") || peek() == UInt8(ascii: "\t") { at += 1 }
    }

    /// Spaces, comments and line ends (between statements, and inside arrays).
    private mutating func skipBlankLines() {
        while true {
            skipSpaces()
            skipComment()
            if take("\n") { line += 1 } else if ahead("\r\n") { at += 2; line += 1 } else { return }
        }
    }

    private mutating func skipComment() {
        guard peek() == UInt8(ascii: "#") else { return }
        while let byte = peek(), byte != 0x0A { at += 1 }
        if at > 0, bytes[at - 1] == 0x0D { at -= 1 }
    }

    /// After a header or a key's value: spaces, perhaps a comment, then the line's end.
    private mutating func expectEndOfLine() throws(TOMLSyntaxError) {
        skipSpaces()
        skipComment()
        guard peek() == nil || peek() == 0x0A || ahead("\r\n") else { throw error("expected the end of the line") }
    }

    private func error(_ message: String) -> TOMLSyntaxError { TOMLSyntaxError(line: line, message: message) }
}

private extension UInt8 {
    /// A-Z, a-z, 0-9, `-` and `_`: what a bare key is made of.
    var isBareKeyByte: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || self == UInt8(ascii: "-") || self == UInt8(ascii: "_")
    }
}
