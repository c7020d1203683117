import Foundation
import PublicText
import TerminalText

/// All the CLI prints goes through here, made inert (`InertText`): most lines quote tags, file names, URLs
/// or the daemon's error text, which may hold escape sequences. Written straight to the file descriptors, so
/// a live status line appears at once even when stdout is a pipe (Swift 6 cannot call `fflush(stdout)`).
enum Terminal {
    /// `text` and a line end on stdout.
    static func line(_ text: String) {
        write(InertText.of(text) + "\n")
    }

    /// `text` in place of the current line on a terminal (carriage return, erase to the end of the line).
    static func replaceLine(_ text: String) {
        write("\r\u{1B}[K" + InertText.of(text))
    }

    /// A line end after the last `replaceLine`.
    static func endLine() { write("\n") }

    /// Warnings quote what the user gave and playlists hold (`skipped http://u:p@h/x.mp3: …`): logins and
    /// tokens in URLs are masked, as the daemon masks them.
    static func warn(_ text: String) {
        FileHandle.standardError.write(Data("quaver: \(InertText.of(PublicText.maskingCredentials(in: text)))\n".utf8))
    }

    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }

    private static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
