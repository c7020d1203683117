@testable import Configuration
import XCTest

/// Our TOML reader (it replaced TOMLKit): what TOML 1.0 allows in a settings file is read, the rest is
/// refused with its line.
final class TOMLReaderTests: XCTestCase {
    private func read(_ text: String) throws -> TOMLTable { try TOMLReader.table(from: text) }

    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> TOMLSyntaxError? {
        do {
            let table = try TOMLReader.table(from: text)
            XCTFail("accepted: \(table)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testKeysStringsAndComments() throws {
        let table = try read("""
            # settings
            [audio]  # the output
            output = "a \\"b\\" \\u00e9\\t\\\\" # comment
            'literal key' = 'C:\\path'
            "quoted.key" = ""
            dotted.inner = true
            """)
        let audio = try XCTUnwrap(table["audio"]?.table)
        XCTAssertEqual(audio["output"], .string("a \"b\" é\t\\"))
        XCTAssertEqual(audio["literal key"], .string("C:\\path"))
        XCTAssertEqual(audio["quoted.key"], .string(""))
        XCTAssertEqual(audio["dotted"]?.table?["inner"], .bool(true))
        XCTAssertEqual(Array(audio.keys), ["output", "literal key", "quoted.key", "dotted"], "the file's order")
    }

    func testNumbers() throws {
        let table = try read("a = 1_000\nb = -3\nc = 0x1F\nd = 0o17\ne = 0b101\nf = 2.5\ng = -1.5e3\nh = +inf\ni = 0\nj = 0.5\n")
        XCTAssertEqual(table["a"], .integer(1000))
        XCTAssertEqual(table["b"], .integer(-3))
        XCTAssertEqual(table["c"], .integer(31))
        XCTAssertEqual(table["d"], .integer(15))
        XCTAssertEqual(table["e"], .integer(5))
        XCTAssertEqual(table["f"], .float(2.5))
        XCTAssertEqual(table["g"], .float(-1500))
        XCTAssertEqual(table["h"], .float(.infinity))
        XCTAssertEqual(table["i"], .integer(0))
        XCTAssertEqual(table["j"], .float(0.5))
    }

    func testArraysAndInlineTablesOverSeveralLines() throws {
        let table = try read("folders = [\r\n  \"/a\", # first\r\n  \"/b\",\r\n]\r\nnetwork = { retries = 5, proxy = \"\" }\r\n")
        XCTAssertEqual(table["folders"], .array([.string("/a"), .string("/b")]))
        XCTAssertEqual(table["network"]?.table?["retries"], .integer(5))
        XCTAssertEqual(table["network"]?.table?["proxy"], .string(""))
    }

    func testWhatNoSettingTakesIsRefusedWithItsLine() {
        XCTAssertEqual(refusal("a = 1\nb = \"\"\"\nx\"\"\"\n")?.line, 2)
        XCTAssertEqual(refusal("\n\nwhen = 2026-11-26\n")?.line, 3)
        XCTAssertEqual(refusal("at = 07:32:00\n")?.line, 1)
        XCTAssertEqual(refusal("[[playlists]]\n")?.line, 1)
    }

    func testMalformedTextIsRefusedWithItsLine() {
        XCTAssertEqual(refusal("a = \"open\nb = 1\n")?.line, 1, "a string must end on its line")
        XCTAssertEqual(refusal("a = 007\n")?.line, 1, "leading zeros")
        XCTAssertEqual(refusal("a = 1__0\n")?.line, 1)
        XCTAssertEqual(refusal("a = 1.\n")?.line, 1)
        XCTAssertEqual(refusal("a = pulsesink\n")?.message, "pulsesink is not a TOML value (is a string missing its quotes?)")
        XCTAssertEqual(refusal("a = 1 2\n")?.line, 1)
        XCTAssertEqual(refusal("[a]\nx = 1\n[a]\n")?.line, 3, "a table defined twice")
        XCTAssertEqual(refusal("a = 1\na.b = 2\n")?.line, 2, "a key that is not a table")
        XCTAssertEqual(refusal("a = [1, 2\n")?.line, 2)
        XCTAssertEqual(refusal("a = \"\\q\"\n")?.line, 1, "an unknown escape")
        XCTAssertEqual(refusal("a = \"\\uD800\"\n")?.line, 1, "a surrogate is no scalar")
        XCTAssertEqual(refusal("a = " + String(repeating: "[", count: 100_000))?.line, 1, "nesting is bounded, not the stack")
        XCTAssertNoThrow(try read("a = " + String(repeating: "[", count: 31) + String(repeating: "]", count: 31)))
    }
}
