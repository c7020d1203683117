/// A JSON value with its object keys in a fixed order, written as one line. Written here rather than with
/// JSONEncoder so that the field order is the documented one and so that the output is inert on a terminal
/// too: besides what JSON requires (quotes, backslashes, C0 controls), DEL, the C1 controls and the bidi
/// and line-separator characters of `InertText` are written as `\uXXXX` escapes, which every JSON reader
/// turns back into the original characters.
public indirect enum JSONValue: Equatable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case boolean(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.text == rhs.text }

    /// `.string` or `.null` when absent.
    public static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
    public static func optional(_ number: Int64?) -> JSONValue { number.map { .integer($0) } ?? .null }

    /// The compact JSON text, without a line end.
    public var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .string(let string): Self.writeString(string, to: &output)
        case .integer(let number): output += String(number)
        // JSON has no NaN or infinity.
        case .number(let number): output += number.isFinite ? String(number) : "null"
        case .boolean(let flag): output += flag ? "true" : "false"
        case .null: output += "null"
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            default:
                if InertText.isActive(scalar) {
                    output += "\\u" + InertText.hex(scalar.value, digits: 4)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
