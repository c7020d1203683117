import Glibc
import PublicText

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
    static let commandSeconds = 10
    /// The most of a token file or a command's output read: a token is one line.
    static let maximumBytes = 8192

    /// Reads the token now (on the scrobbler's thread: a command may take a while).
    func read() throws -> String {
        let text: String
        switch self {
        case .file(let path): text = try Self.readFile(path)
        case .command(let command): text = try Self.run(command)
        }
        let token = text.trimmingWhitespace()
        guard !token.isEmpty, !token.contains(where: { $0.isNewline || $0 == "\0" }), token.utf8.count <= 4096 else {
            throw Failure(description: "the ListenBrainz token is empty or not one line")
        }
        return token
    }

    /// Only a regular file with no access for group or others: a token others can read is refused.
    private static func readFile(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { throw Failure(description: "cannot open the token file \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Failure(description: "the token file \(path) is not a regular file")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw Failure(description: "the token file \(path) may be read by others (mode \(String(info.st_mode & 0o777, radix: 8))): make it 0600")
        }
        var bytes = [UInt8](repeating: 0, count: maximumBytes)
        let count = Glibc.read(fd, &bytes, bytes.count)
        guard count >= 0 else { throw Failure(description: "cannot read the token file \(path): \(String(cString: strerror(errno)))") }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    /// Runs `command` with `/bin/sh -c` (posix_spawn: Foundation's Process would bring all of Foundation and
    /// ICU into quaverd), stdin from /dev/null, stderr the daemon's, bounded in time.
    private static func run(_ command: String) throws -> String {
        let deadline = ContinuousClock.now + .seconds(commandSeconds)
        var ends: [Int32] = [-1, -1]
        // pipe2 is hidden from Swift: both ends are marked close-on-exec at once (the child gets the write end
        // as its stdout through dup2, which clears the mark on the copy).
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0 else {
            throw Failure(description: "cannot run the token command: \(String(cString: strerror(errno)))")
        }
        defer { close(ends[0]) }
        let spawned = Result { try spawnShell(command, output: ends[1]) }
        close(ends[1])
        let pid = try spawned.get()
        let output = readOutput(ends[0], until: deadline)
        guard let status = exitStatus(of: pid, until: deadline) else {
            throw Failure(description: "the token command did not finish within \(commandSeconds) s")
        }
        guard status == 0 else { throw Failure(description: "the token command failed (exit status \(status))") }
        return String(decoding: output, as: UTF8.self)
    }

    private static func spawnShell(_ command: String, output: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        let words: [String] = ["/bin/sh", "-c", command]
        var arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, nil, &arguments, environ)
        guard result == 0 else { throw Failure(description: "cannot run the token command: \(String(cString: strerror(result)))") }
        return pid
    }

    /// The command's output (its first `maximumBytes`) until it closes it or the deadline passes; the rest is
    /// read and dropped, so a chatty command does not wait on a full pipe.
    private static func readOutput(_ fd: Int32, until deadline: ContinuousClock.Instant) -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while let wait = milliseconds(until: deadline) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, wait)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = Glibc.read(fd, &chunk, chunk.count)
            guard count > 0 else { break }
            output += chunk[..<min(count, maximumBytes - output.count)]
        }
        return output
    }

    /// The exit status once the command has ended, or `nil` (and the command killed) at the deadline.
    private static func exitStatus(of pid: pid_t, until deadline: ContinuousClock.Instant) -> Int32? {
        var status: Int32 = 0
        while milliseconds(until: deadline) != nil {
            if waitpid(pid, &status, WNOHANG) == pid {
                // WIFSIGNALED: the signal's number stands for the status, as Process reported it.
                return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
            }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        return nil
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32? {
        let left = ContinuousClock.now.duration(to: deadline).components
        let milliseconds = left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000
        return milliseconds > 0 ? Int32(milliseconds) : nil
    }
}
