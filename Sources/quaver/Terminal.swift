import FoundationEssentials
import Glibc
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
        write("quaver: \(InertText.of(PublicText.maskingCredentials(in: text)))\n", to: STDERR_FILENO)
    }

    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }

    /// All of `text` at once, unbuffered (as FileHandle wrote it, which full Foundation would bring in with ICU).
    private static func write(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
