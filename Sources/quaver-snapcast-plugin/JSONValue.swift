import FoundationEssentials

/// A JSON value of snapserver's JSON-RPC, read and written with FoundationEssentials' JSONDecoder and
/// JSONEncoder (full Foundation's JSONSerialization would bring ICU and its data into the plugin). Integers
/// stay integers, so a request's `id` goes back as it came; booleans are never numbers.
enum JSONValue: Equatable, Codable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() { self = .null }
        else if let flag = try? value.decode(Bool.self) { self = .bool(flag) }
        else if let integer = try? value.decode(Int.self) { self = .integer(integer) }
        else if let number = try? value.decode(Double.self) { self = .number(number) }
        else if let text = try? value.decode(String.self) { self = .string(text) }
        else if let array = try? value.decode([JSONValue].self) { self = .array(array) }
        else { self = .object(try value.decode([String: JSONValue].self)) }
    }

    func encode(to encoder: Encoder) throws {
        var value = encoder.singleValueContainer()
        switch self {
        case .null: try value.encodeNil()
        case .bool(let flag): try value.encode(flag)
        case .integer(let integer): try value.encode(integer)
        case .number(let number): try value.encode(number)
        case .string(let text): try value.encode(text)
        case .array(let array): try value.encode(array)
        case .object(let object): try value.encode(object)
        }
    }

    var string: String? { if case .string(let text) = self { text } else { nil } }
    var object: [String: JSONValue]? { if case .object(let object) = self { object } else { nil } }
    var bool: Bool? { if case .bool(let flag) = self { flag } else { nil } }

    /// A JSON number (not a boolean), finite.
    var number: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .number(let number): number.isFinite ? number : nil
        default: nil
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
                     ExpressibleByDictionaryLiteral {
    init(stringLiteral text: String) { self = .string(text) }
    init(booleanLiteral flag: Bool) { self = .bool(flag) }
    init(integerLiteral integer: Int) { self = .integer(integer) }
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
