import FoundationEssentials

/// A line with `{{field}}` placeholders, as playerctl's `--format` spells them:
/// `{{artist}} - {{title}} {{position}}/{{length}}`. Spaces inside the braces are allowed. Field values are
/// made inert (`InertText`); the template's own text is the user's and printed as given.
public struct OutputTemplate: Equatable {
    public struct UnknownField: Error, CustomStringConvertible {
        public let name: String
        public let known: [String]
        public var description: String {
            "unknown field {{\(name)}} in the format; known fields: \(known.joined(separator: ", "))"
        }
    }

    enum Piece: Equatable {
        case literal(String)
        case field(String)
    }

    let pieces: [Piece]

    /// Fails on a field outside `knownFields`, so that a typo shows at once instead of printing nothing.
    /// An unclosed `{{` is literal text.
    public init(_ template: String, knownFields: [String]) throws {
        var pieces: [Piece] = []
        var rest = Substring(template)
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            if open.lowerBound > rest.startIndex { pieces.append(.literal(String(rest[..<open.lowerBound]))) }
            let name = rest[open.upperBound..<close.lowerBound].trimmingSpaces
            guard knownFields.contains(name) else { throw UnknownField(name: name, known: knownFields) }
            pieces.append(.field(name))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { pieces.append(.literal(String(rest))) }
        self.pieces = pieces
    }

    /// The line with each field replaced by its value (empty when `values` lacks it).
    public func render(_ values: [String: String]) -> String {
        pieces.map { piece in
            switch piece {
            case .literal(let text): return text
            case .field(let name): return InertText.of(values[name] ?? "")
            }
        }.joined()
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
