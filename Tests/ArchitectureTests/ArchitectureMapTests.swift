import Foundation
import XCTest

/// docs/ARCHITECTURE.md's module table is the map a newcomer reads first. These tests hold it to the code:
/// every target of Package.swift has a row, and every module imports (in its sources) and depends on (in
/// Package.swift) only what its row allows. A new module or a new import fails here until the map says so.
final class ArchitectureMapTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The operating system's own modules, which any layer may use.
    private static let platformModules: Set<String> = ["Glibc", "Dispatch", "Synchronization"]
    /// How the table names the outside packages' modules.
    private static let packageModules = ["swift-log": "Logging", "TOMLKit": "TOMLKit",
                                         "ArgumentParser": "ArgumentParser", "Foundation": "Foundation"]

    func testEveryTargetHasARowInTheModuleTable() throws {
        let rows = try Self.moduleTable()
        let missing = try Self.targets().map(\.name).filter { rows[$0] == nil }
        XCTAssertEqual(missing, [], "targets of Package.swift without a row in docs/ARCHITECTURE.md's module table")
    }

    func testEveryModuleImportsOnlyWhatItsRowAllows() throws {
        let rows = try Self.moduleTable()
        for target in try Self.targets() {
            guard let allowed = rows[target.name] else { continue }
            let imports = try Self.imports(under: target.path).subtracting(Self.platformModules)
            XCTAssertEqual(imports.subtracting(allowed).sorted(), [],
                           "\(target.name) imports what its row in docs/ARCHITECTURE.md does not allow")
        }
    }

    func testEveryModuleDependsOnlyOnWhatItsRowAllows() throws {
        let rows = try Self.moduleTable()
        for target in try Self.targets() {
            guard let allowed = rows[target.name] else { continue }
            XCTAssertEqual(target.dependencies.subtracting(allowed).sorted(), [],
                           "\(target.name)'s dependencies in Package.swift go beyond its row in docs/ARCHITECTURE.md")
        }
    }

    /// The rows of the table under "Modules and what they may import": each module named in the first column,
    /// with the modules named in the last. "the C modules" stands for every system-library and C target.
    static func moduleTable() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        guard let start = text.range(of: "### Modules and what they may import") else {
            throw MapError("docs/ARCHITECTURE.md has no section \"Modules and what they may import\"")
        }
        let cModules = try Set(targets().filter { $0.isC }.map(\.name))
        var rows: [String: Set<String>] = [:]
        for line in text[start.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") })
            .prefix(while: { $0.hasPrefix("|") }) {
            let columns = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 4 else { continue }
            let names = backticked(columns[1])
            let last = columns[columns.count - 2]
            var allowed = Set(backticked(last))
            for (word, module) in packageModules where last.contains(word) { allowed.insert(module) }
            if last.contains("the C modules") { allowed.formUnion(cModules) }
            for name in names { rows[name] = allowed }
        }
        return rows
    }

    static func backticked(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    struct Target {
        let name: String
        let path: URL
        let dependencies: Set<String>
        let isC: Bool
    }

    /// Package.swift's targets (not the test targets): name, folder, and the modules of their dependencies.
    static func targets() throws -> [Target] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try NSRegularExpression(
            pattern: #"\.(target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"(.*?)\)\s*,\s*(?=\.|\]|//)"#,
            options: [.dotMatchesLineSeparators])
        let whole = NSRange(manifest.startIndex..., in: manifest)
        return declaration.matches(in: manifest, range: whole).compactMap { match in
            guard let kind = Range(match.range(at: 1), in: manifest).map({ String(manifest[$0]) }),
                  let name = Range(match.range(at: 2), in: manifest).map({ String(manifest[$0]) }),
                  let rest = Range(match.range(at: 3), in: manifest).map({ String(manifest[$0]) }) else { return nil }
            let customPath = rest.firstMatch(#"path:\s*"([^"]+)""#)
            let path = root.appendingPathComponent(customPath ?? "Sources/\(name)")
            return Target(name: name, path: path, dependencies: dependencies(in: rest),
                          isC: kind == "systemLibrary" || !FileManager.default.fileExists(atPath: path.path) ||
                              !containsSwift(path))
        }
    }

    /// The modules a target's `dependencies:` list names: plain strings, and the `name:` of each `.product`.
    static func dependencies(in declaration: String) -> Set<String> {
        guard let list = declaration.firstMatch(#"dependencies:\s*\[(.*?)\]\s*(,|$)"#) else { return [] }
        var names = Set<String>()
        for product in list.allMatches(#"\.product\(name:\s*"([^"]+)""#) { names.insert(product) }
        let withoutProducts = list.replacingOccurrences(of: #"\.product\([^)]*\)"#, with: "", options: .regularExpression)
        for plain in withoutProducts.allMatches(#""([^"]+)""#) { names.insert(plain) }
        return names
    }

    static func containsSwift(_ folder: URL) -> Bool {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).contains { $0.hasSuffix(".swift") }
    }

    /// The modules named by the `import` lines at the head of a folder's Swift files (attributes such as
    /// `@preconcurrency` allowed). Reading stops at the first line of code, so a script quoted in a string
    /// (a test server in Python) is not taken for imports.
    static func imports(under folder: URL) throws -> Set<String> {
        var modules = Set<String>()
        for file in FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("//") || trimmed.hasPrefix("/*") || trimmed.hasPrefix("*")
                    || trimmed.hasPrefix("#") { continue }
                let words = trimmed.split(separator: " ").filter { !$0.hasPrefix("@") }
                guard words.count >= 2, words[0] == "import" else { break }
                modules.insert(String(words[1]))
            }
        }
        return modules
    }

    struct MapError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

private extension String {
    func firstMatch(_ pattern: String) -> String? { allMatches(pattern).first }

    /// The first capture group of every match of `pattern`.
    func allMatches(_ pattern: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return [] }
        return expression.matches(in: self, range: NSRange(startIndex..., in: self)).compactMap {
            Range($0.range(at: 1), in: self).map { String(self[$0]) }
        }
    }
}
