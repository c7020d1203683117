/// A value of a TOML file, as `config.toml`'s settings use them. Dates and times, which no setting takes,
/// are refused by the reader (TOMLReader) with their line.
enum TOMLValue: Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    var string: String? { if case .string(let text) = self { text } else { nil } }
    var int: Int? { if case .integer(let number) = self { number } else { nil } }
    var double: Double? { if case .float(let number) = self { number } else { nil } }
    var bool: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    var array: [TOMLValue]? { if case .array(let values) = self { values } else { nil } }
    var table: TOMLTable? { if case .table(let table) = self { table } else { nil } }
}

/// A TOML table: its keys in the order the file gives them, so errors name the first bad key as written.
struct TOMLTable: Equatable, Sequence {
    private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]

    subscript(key: String) -> TOMLValue? { values[key] }

    func makeIterator() -> some IteratorProtocol<(String, TOMLValue)> {
        keys.lazy.compactMap { key in values[key].map { (key, $0) } }.makeIterator()
    }

    /// Sets `value` at `path` (a dotted key), making the tables on the way. Returns what is wrong instead:
    /// the key is taken, or a value that is not a table stands on the way.
    mutating func insert(_ value: TOMLValue, at path: ArraySlice<String>) -> String? {
        guard let key = path.first else { return "an empty key" }
        guard path.count > 1 else {
            guard values[key] == nil else { return "\(key) is defined twice" }
            keys.append(key)
            values[key] = value
            return nil
        }
        var inner = values[key] ?? .table(TOMLTable())
        guard case .table(var table) = inner else { return "\(key) is not a table" }
        if let problem = table.insert(value, at: path.dropFirst()) { return problem }
        inner = .table(table)
        if values[key] == nil { keys.append(key) }
        values[key] = inner
        return nil
    }

    /// Makes the table at `path` (a `[section]` header) if it is not there; what is wrong otherwise.
    mutating func makeTable(at path: ArraySlice<String>) -> String? {
        guard let key = path.first else { return "an empty table name" }
        var inner = values[key] ?? .table(TOMLTable())
        guard case .table(var table) = inner else { return "\(key) is not a table" }
        if path.count > 1, let problem = table.makeTable(at: path.dropFirst()) { return problem }
        inner = .table(table)
        if values[key] == nil { keys.append(key) }
        values[key] = inner
        return nil
    }
}
