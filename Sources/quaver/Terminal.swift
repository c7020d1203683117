import Foundation

/// Output written straight to the file descriptors, so a live status line appears at once even
/// when stdout is a pipe (Swift 6 cannot call `fflush(stdout)`).
enum Terminal {
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func warn(_ text: String) {
        FileHandle.standardError.write(Data("quaver: \(text)\n".utf8))
    }

    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }
}
