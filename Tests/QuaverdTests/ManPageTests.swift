import Foundation
import TestSupport
import XCTest

/// The hand-written man pages cannot fall behind the programs: every command and option the programs
/// accept (as ArgumentParser describes the CLI's; quaverd's own --help lists the daemon's) and every settings
/// key of config.example.toml is in them.
final class ManPageTests: XCTestCase {
    func page(_ name: String) throws -> String {
        // roff escapes hyphens (`\-`); the words are compared without them.
        try String(contentsOf: InstallTests.repository.appendingPathComponent("man/\(name).1"), encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
    }

    /// Command names and long option names of `program`, from `--experimental-dump-help`.
    func words(of program: String) throws -> Set<String> {
        let result = try ChildProcess.run(productsDirectory.appendingPathComponent(program).path,
                                          ["--experimental-dump-help"], timeout: 20)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        var words = Set<String>()
        func collect(_ command: [String: Any]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                    words.insert("--" + (name["name"] as? String ?? ""))
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                words.insert(sub["commandName"] as? String ?? "")
                collect(sub)
            }
        }
        collect(try XCTUnwrap(root["command"] as? [String: Any]))
        return words
    }

    func testQuaverPageHasEveryCommandAndOption() throws {
        let text = try page("quaver")
        let missing = try words(of: "quaver").filter { !text.contains($0) }
        XCTAssertEqual(missing, [], "quaver(1) lacks these")
    }

    func testQuaverdPageHasEveryOptionAndSetting() throws {
        let text = try page("quaverd")
        // quaverd reads its command line by hand (DaemonOptions): its options are the long ones its --help names.
        let help = try ChildProcess.run(RunningDaemon.executable, ["--help"], timeout: 20).stdout
        let options = Set(help.split(whereSeparator: { " ,[]\n".contains($0) })
            .filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
        XCTAssertGreaterThan(options.count, 5, help)
        XCTAssertEqual(options.filter { !text.contains($0) }, [], "quaverd(1) lacks these options")
        let example = try String(contentsOf: InstallTests.repository.appendingPathComponent("config.example.toml"),
                                 encoding: .utf8)
        let keys = example.split(separator: "\n").compactMap { line -> String? in
            if line.hasPrefix("[") { return String(line) }
            return line.range(of: #"^[a-z-]+(?= =)"#, options: .regularExpression).map { String(line[$0]) }
        }
        XCTAssertGreaterThan(keys.count, 10)
        XCTAssertEqual(keys.filter { !text.contains($0) }, [], "quaverd(1) lacks these settings")
    }
}
