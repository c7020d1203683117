import Foundation
import TerminalText
import XCTest

final class InertTextTests: XCTestCase {
    func testEscapeSequencesBellAndCarriageReturnsBecomeVisiblePlaceholders() {
        let hostile = "Evil \u{1B}]0;pwned\u{07} \u{1B}[2J\u{1B}[31mRED\r\u{08}"
        let inert = InertText.of(hostile)
        XCTAssertEqual(inert, "Evil ␛]0;pwned␇ ␛[2J␛[31mRED␍␈")
        XCTAssertFalse(inert.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    func testC1ControlsDeleteAndNUL() {
        // U+009B is the one-character CSI: `\u{9B}2J` clears the screen on terminals that read C1 controls.
        XCTAssertEqual(InertText.of("a\u{9B}2J\u{7F}\u{00}b\u{85}"), "a<U+009B>2J␡␀b<U+0085>")
    }

    func testBidiOverridesIsolatesMarksAndLineSeparators() {
        XCTAssertEqual(InertText.of("abc\u{202E}gpj.exe"), "abc<U+202E>gpj.exe")
        XCTAssertEqual(InertText.of("\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}\u{061C}\u{2028}\u{2029}"),
                       "<U+2066><U+2067><U+2068><U+2069><U+200E><U+200F><U+061C><U+2028><U+2029>")
    }

    func testNewlinesAreReplacedUnlessKept() {
        XCTAssertEqual(InertText.of("one\ntwo\tthree"), "one␊two␉three")
        XCTAssertEqual(InertText.of("one\ntwo\u{1B}", keepingNewlines: true), "one\ntwo␛")
    }

    func testOrdinaryTextIsUnchanged() {
        let text = "Ça – 東京 🎵 ▶ e\u{301} العربية"
        XCTAssertEqual(InertText.of(text), text)
    }
}

final class JSONValueTests: XCTestCase {
    func testObjectsKeepTheirOrderAndValuesTheirTypes() {
        let value = JSONValue.object([("b", .integer(-3)), ("a", .number(0.5)), ("t", .boolean(true)), ("n", .null),
                                      ("l", .array([.string("x"), .number(.nan)]))])
        XCTAssertEqual(value.text, #"{"b":-3,"a":0.5,"t":true,"n":null,"l":["x",null]}"#)
    }

    func testStringsAreEscapedAndInertAndReadBackUnchanged() throws {
        let hostile = "Evil \u{1B}]0;pwned\u{07} \"q\" \\ \n\t\r \u{9B} \u{7F} \u{202E}rtl \u{0} 東京"
        let text = JSONValue.object([("title", .string(hostile))]).text
        XCTAssertFalse(text.unicodeScalars.contains { InertText.isActive($0) }, text)
        XCTAssertTrue(text.contains(#"\u001B]0;pwned\u0007"#), text)
        XCTAssertTrue(text.contains(#"\u202Ertl"#), text)
        let decoded = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
        XCTAssertEqual(decoded?["title"], hostile)
    }
}

final class OutputTemplateTests: XCTestCase {
    let fields = ["artist", "title", "position", "length"]

    func testFieldsAreReplacedAndMadeInert() throws {
        let template = try OutputTemplate("{{artist}} - {{ title }} {{position}}/{{length}}", knownFields: fields)
        XCTAssertEqual(template.render(["artist": "A\u{1B}[2J", "title": "T\u{202E}", "position": "1:02", "length": "3:00"]),
                       "A␛[2J - T<U+202E> 1:02/3:00")
        XCTAssertEqual(template.render([:]), " -  /", "missing values are empty")
    }

    func testUnknownFieldsFailAndUnclosedBracesAreText() throws {
        XCTAssertThrowsError(try OutputTemplate("{{artits}}", knownFields: fields)) { error in
            XCTAssertEqual((error as? OutputTemplate.UnknownField)?.name, "artits")
        }
        XCTAssertEqual(try OutputTemplate("{{title", knownFields: fields).render(["title": "x"]), "{{title")
        XCTAssertEqual(try OutputTemplate("plain", knownFields: fields).render([:]), "plain")
    }
}
