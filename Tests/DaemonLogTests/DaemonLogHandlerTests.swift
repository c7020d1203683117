import Foundation
import Logging
import XCTest

@testable import DaemonLog

final class DaemonLogHandlerTests: XCTestCase {
    /// A pipe the handler writes into, read back by the test.
    final class CapturedOutput {
        let pipe = Pipe()
        lazy var output = LogOutput(descriptor: pipe.fileHandleForWriting.fileDescriptor)
        func text() -> String {
            try? pipe.fileHandleForWriting.close()
            return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
    }

    func logger(_ style: DaemonLogHandler.Style, level: Logger.Level = .trace, into captured: CapturedOutput) -> Logger {
        Logger(label: "quaverd") { DaemonLogHandler(label: $0, level: level, style: style, output: captured.output) }
    }

    func testJournalLinesCarryTheSyslogPriorityAndNoTimestamp() {
        let captured = CapturedOutput()
        let log = logger(.journal, into: captured)
        log.critical("c")
        log.error("e")
        log.warning("w")
        log.notice("n")
        log.info("i")
        log.debug("d")
        log.trace("t")
        XCTAssertEqual(captured.text(), """
            <2>quaverd: c
            <3>quaverd: e
            <4>quaverd: w
            <5>quaverd: n
            <6>quaverd: i
            <7>quaverd: d
            <7>quaverd: t

            """)
    }

    func testTerminalLinesKeepStreamLogHandlersShape() throws {
        let captured = CapturedOutput()
        logger(.terminal, into: captured).warning("disk full", metadata: ["file": "state.json"])
        let line = captured.text()
        let pattern = #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} warning quaverd: file=state\.json \[DaemonLogTests\] disk full\n$"#
        XCTAssertNotNil(line.range(of: pattern, options: .regularExpression), line)
    }

    func testTheLevelFiltersAndMessagesAreOneInertLine() {
        let captured = CapturedOutput()
        let log = logger(.journal, level: .warning, into: captured)
        log.info("not shown")
        log.error("tag \u{1B}]0;x\u{07} two\nlines \u{202E}")
        XCTAssertEqual(captured.text(), "<3>quaverd: tag ␛]0;x␇ two␊lines <U+202E>\n")
    }

    /// Both formats mask logins (whatever the password holds) and secret query values, in the message and
    /// in the metadata.
    func testBothFormatsMaskLoginsAndTokens() {
        for style in [DaemonLogHandler.Style.journal, .terminal] {
            let captured = CapturedOutput()
            logger(style, into: captured).error("cannot open http://u:p'w d\"<x>@h/a?token=T0K&n=1: refused",
                                                metadata: ["url": "https://h/b?X-Amz-Signature=S1G"])
            let line = captured.text()
            XCTAssertTrue(line.contains("url=https://h/b?X-Amz-Signature=***") && line.contains("http://***@h/a?token=***&n=1"), line)
            for secret in ["p'w", "T0K", "S1G"] { XCTAssertFalse(line.contains(secret), line) }
        }
    }

    func testJournalStyleOnlyWhenJOURNAL_STREAMNamesStderr() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(getpid())")
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var status = stat()
        XCTAssertEqual(fstat(handle.fileDescriptor, &status), 0)
        let matching = "\(status.st_dev):\(status.st_ino)"
        let detect = { DaemonLogHandler.Style.detect(environment: $0, standardError: handle.fileDescriptor) }
        XCTAssertEqual(detect(["JOURNAL_STREAM": matching]), .journal)
        XCTAssertEqual(detect(["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino + 1)"]), .terminal,
                       "inherited from a parent whose stderr was the journal")
        XCTAssertEqual(detect([:]), .terminal)
    }
}
