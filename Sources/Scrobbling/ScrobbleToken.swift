import Foundation

/// Where the user's ListenBrainz token comes from: a file only its owner can read, or a command (a password
/// manager) that prints it. Never from the settings text, and never logged: errors name the file or the command's
/// exit status, not what was read.
public enum ScrobbleToken: Sendable {
    case file(String)
    case command(String)

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The longest a token command may take.
    static let commandSeconds = 10.0

    /// Reads the token now (on the scrobbler's thread: a command may take a while).
    func read() throws -> String {
        let text: String
        switch self {
        case .file(let path): text = try Self.readFile(path)
        case .command(let command): text = try Self.run(command)
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, !token.contains(where: { $0.isNewline || $0 == "\0" }), token.utf8.count <= 4096 else {
            throw Failure(description: "the ListenBrainz token is empty or not one line")
        }
        return token
    }

    /// Only a regular file with no access for group or others: a token others can read is refused.
    private static func readFile(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { throw Failure(description: "cannot open the token file \(path): \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Failure(description: "the token file \(path) is not a regular file")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw Failure(description: "the token file \(path) may be read by others (mode \(String(info.st_mode & 0o777, radix: 8))): make it 0600")
        }
        let data = try handle.read(upToCount: 8192) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs `command` with `/bin/sh -c`, bounded in time; stderr goes to the daemon's. A token is a line: more
    /// than a pipe's buffer (64 KiB) of output makes the command wait, and it is stopped at the deadline.
    private static func run(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(commandSeconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            throw Failure(description: "the token command did not finish within \(Int(commandSeconds)) s")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "the token command failed (exit status \(process.terminationStatus))")
        }
        return String(decoding: data.prefix(8192), as: UTF8.self)
    }
}
