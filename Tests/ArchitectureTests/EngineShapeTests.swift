import Foundation
import XCTest

/// The engine's shape, held to what docs/ARCHITECTURE.md says of it ("Engine"): one value for the loop side's
/// state, changed in one file; the resume target worked out once; few locks (what the streaming threads touch is
/// behind one); small functions. These read the sources, as ArchitectureMapTests does, so a change that spreads
/// the state or the locks again fails here, not in a review.
final class EngineShapeTests: XCTestCase {
    private static let engine = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/GStreamerEngine")

    func testTheEngineClassHasAtMostTenStoredProperties() throws {
        let stored = try Self.storedProperties(ofClass: "GStreamerEngine", in: "GStreamerEngine.swift")
        XCTAssertLessThanOrEqual(stored.count, 10, "GStreamerEngine's stored properties: \(stored)")
    }

    /// `state` is `private(set)` in GStreamerEngine.swift (so the compiler keeps the rule too), and no other file
    /// of the engine class assigns it or any part of it.
    func testThePhaseIsAssignedInOneFile() throws {
        let assignment = try NSRegularExpression(pattern: #"(\bstate(\.\w+|\?)*\s*(=|\+=|-=)(?!=))|&state\b"#)
        let files = try Self.sources().filter { _, text in
            (text.contains("extension GStreamerEngine") || text.contains("class GStreamerEngine")) &&
            Self.code(text).contains { assignment.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
        }.map(\.name)
        XCTAssertEqual(files, ["GStreamerEngine.swift"], "files that assign the engine's state")
        let declaration = try String(contentsOf: Self.engine.appendingPathComponent("GStreamerEngine.swift"), encoding: .utf8)
        XCTAssertTrue(declaration.contains("private(set) var state = EngineState()"))
    }

    /// The target a load, a restart or a recovery resumes at (the start asked for, else the newest seek, else the
    /// position known) is worked out in one place: `Phase.resumption`.
    func testTheResumeTargetIsComputedOnce() throws {
        let chain = try NSRegularExpression(pattern: #"\.(target|position)\s*\?\?"#)
        let lines = try Self.sources().flatMap { name, text in
            Self.code(text).filter { chain.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
                .map { "\(name): \($0.trimmingCharacters(in: .whitespaces))" }
        }
        XCTAssertEqual(lines.count, 1, "the resume-target chain: \(lines)")
    }

    /// `StreamingSide`'s lock, the bounded calls' (`BoundedCall`) and the remote WAV check's reader's
    /// (`ChunkHeaderReader`), at the time of writing.
    func testLocksAreCreatedAtMostFiveTimesInAtMostThreeFiles() throws {
        let creation = try NSRegularExpression(
            pattern: #"\b(Mutex|LockedValue|NSCondition|NSLock|ConditionLock|DispatchSemaphore)(<[^>]*>)?\("#)
        let sites = try Self.sources().flatMap { name, text in
            Self.code(text).filter { creation.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
                .map { "\(name): \($0.trimmingCharacters(in: .whitespaces))" }
        }
        let files = Set(sites.map { $0.prefix { $0 != ":" } })
        XCTAssertLessThanOrEqual(sites.count, 5, "lock creation sites: \(sites)")
        XCTAssertLessThanOrEqual(files.count, 3, "files creating locks: \(files.sorted())")
    }

    func testNoEngineFunctionIsLongerThanFortyLines() throws {
        let long = try Self.sources().flatMap { name, text in
            Self.functionLengths(in: Self.code(text)).filter { $0.lines > 40 }.map { "\(name): \($0.head) (\($0.lines) lines)" }
        }
        XCTAssertEqual(long, [], "engine functions over 40 lines")
    }

    // MARK: Reading the sources

    /// Every Swift file of the engine (Network/ included): its name and text.
    static func sources() throws -> [(name: String, text: String)] {
        let names = (FileManager.default.enumerator(atPath: engine.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".swift") }.sorted()
        return try names.map { ($0, try String(contentsOf: engine.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// The lines of `text` without comments (whole-line `//` comments and what follows `//` outside a string).
    static func code(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var inString = false
            var previous: Character = " "
            for (offset, character) in line.enumerated() {
                if character == "\"" { inString.toggle() }
                if !inString, character == "/", previous == "/" { return String(line.prefix(offset - 1)) }
                previous = character
            }
            return String(line)
        }
    }

    /// The stored properties declared directly in `class name`'s body (one level deep): `let`s, and `var`s
    /// with no getter block.
    static func storedProperties(ofClass name: String, in file: String) throws -> [String] {
        let text = try String(contentsOf: engine.appendingPathComponent(file), encoding: .utf8)
        let property = try NSRegularExpression(pattern: #"^\s*(?:(?:public|private|fileprivate|internal|weak|"#
            + #"private\(set\)|public\(set\)|static|lazy|unowned)\s+)*(let|var)\s+(\w+)([^{]*)(\{?)"#)
        var depth = 0, inClass = false
        var names: [String] = []
        for line in code(text) {
            if !inClass, line.contains("class \(name)") { inClass = true }
            let before = depth
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            if inClass, before > 0, depth == 0 { break }
            guard inClass, before == 1, !line.contains("static "),
                  let match = property.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                  let nameRange = Range(match.range(at: 2), in: line),
                  let brace = Range(match.range(at: 4), in: line) else { continue }
            let declared = String(line[nameRange])
            let hasGetter = !line[brace].isEmpty && !line.contains("=")
            if !hasGetter { names.append(declared) }
        }
        return names
    }

    /// Each `func`, `init` and `deinit` with a body: its first line and its length in lines, from the declaration
    /// to its closing brace (braces counted outside string literals).
    static func functionLengths(in lines: [String]) -> [(head: String, lines: Int)] {
        let declaration = try? NSRegularExpression(pattern: #"^\s*[\w@() ]*\b(func\s|init[(<?]|deinit\b)"#)
        var found: [(head: String, lines: Int)] = []
        for (start, line) in lines.enumerated()
        where declaration?.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
            var depth = 0, opened = false
            for (offset, body) in lines[start...].enumerated() {
                let braces = braceBalance(body)
                depth += braces.balance
                opened = opened || braces.opened
                if opened, depth <= 0 {
                    found.append((line.trimmingCharacters(in: .whitespaces), offset + 1))
                    break
                }
            }
        }
        return found
    }

    private static func braceBalance(_ line: String) -> (balance: Int, opened: Bool) {
        var balance = 0, opened = false, inString = false
        for character in line {
            if character == "\"" { inString.toggle() }
            guard !inString else { continue }
            if character == "{" { balance += 1; opened = true }
            if character == "}" { balance -= 1 }
        }
        return (balance, opened)
    }
}
