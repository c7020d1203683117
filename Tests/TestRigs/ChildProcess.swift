import Foundation
import Glibc

/// A process a test started. It is stopped by PID (SIGTERM, then SIGKILL) when released or by `stop()`,
/// never by name, so tests cannot touch processes they did not start.
public final class ChildProcess {
    public let process: Process
    public let stdoutURL: URL
    public let stderrURL: URL

    /// Starts `executable` (a path, or a name looked up on PATH) with `arguments`.
    /// Output goes to files in `logDirectory`, so a chatty child never blocks on a full pipe.
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                logDirectory: URL, name: String? = nil) throws {
        let label = name ?? URL(fileURLWithPath: executable).lastPathComponent
        stdoutURL = logDirectory.appendingPathComponent("\(label).\(UUID().uuidString.prefix(8)).out")
        stderrURL = logDirectory.appendingPathComponent("\(label).\(UUID().uuidString.prefix(8)).err")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)  // opened below: that throws if it failed
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: try ChildProcess.resolve(executable))
        process.arguments = arguments
        process.environment = LiveChildren.marked(Self.withUTF8Locale(environment ?? ProcessInfo.processInfo.environment))
        process.standardInput = FileHandle.nullDevice
        let output = try FileHandle(forWritingTo: stdoutURL), errors = try FileHandle(forWritingTo: stderrURL)
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The child writes through its own copies. Ours would stay open as long as the Process object, which
        // XCTest keeps with its test case until the run ends: two descriptors per child, and a whole run as
        // an ordinary user (soft limit 1024) failed with "Too many open files" after some 400 tests.
        try? output.close()
        try? errors.close()
        let process = process
        LiveChildren.shared.add(process.processIdentifier) { process.isRunning }
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    public var standardOutput: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    public var standardError: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Sends `signal` to this child only.
    public func send(_ signal: Int32) {
        if process.isRunning { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for the child to exit by itself; returns its status if it did.
    @discardableResult
    public func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// SIGTERM, then SIGKILL after `grace` seconds.
    public func stop(grace: Double = 3) {
        defer { if !process.isRunning { LiveChildren.shared.remove(pid) } }
        guard process.isRunning else { return }
        send(SIGTERM)
        if waitForExit(timeout: grace) == nil {
            send(SIGKILL)
            waitForExit(timeout: 5)
        }
    }

    deinit { stop() }

    /// Runs a command to completion and returns its exit status and output.
    public static func run(_ executable: String, _ arguments: [String] = [],
                           environment: [String: String]? = nil,
                           timeout: Double = 30) throws -> (status: Int32, stdout: String, stderr: String) {
        let dir = try TemporaryDirectory(prefix: "run")
        let child = try ChildProcess(executable, arguments, environment: environment, logDirectory: dir.url)
        if child.waitForExit(timeout: timeout) == nil {
            child.stop(grace: 1)
            throw TestHarnessError("\(executable) \(arguments.joined(separator: " ")) timed out after \(timeout) s")
        }
        return (child.process.terminationStatus, child.standardOutput, child.standardError)
    }

    /// Tools that convert their arguments or output through the locale (metaflac --set-tag, man, sox's
    /// messages) turn every non-ASCII character into `?` or `#` under the C locale, which is what a fresh
    /// machine or container has when nothing sets LANG. Every child gets a UTF-8 locale from the test instead
    /// of from the machine, unless the test chose one itself. C.UTF-8 is built into glibc: no locale to install.
    static func withUTF8Locale(_ environment: [String: String]) -> [String: String] {
        guard environment["LC_ALL"] == nil else { return environment }
        var chosen = environment
        chosen["LC_ALL"] = "C.UTF-8"
        return chosen
    }

    /// Folders looked in after PATH: Debian installs daemons the tests start (nginx) in /usr/sbin, which an
    /// ordinary user's PATH leaves out (login.defs' ENV_PATH), and scripts/test may run as that user.
    static let systemFolders: [Substring] = ["/usr/local/sbin", "/usr/sbin", "/sbin"]

    static func resolve(_ executable: String) throws -> String {
        if executable.contains("/") { return executable }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") + systemFolders {
            let candidate = "\(dir)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw TestHarnessError("\(executable) not found on PATH (run scripts/deps to install test dependencies)")
    }
}

/// Every child a test started and has not stopped yet. XCTest keeps its test case objects until the
/// process exits, and a fixture held by one is then never released: at exit the children still
/// running here are stopped by PID, so a run leaves no process behind (scripts/test checks that).
public final class LiveChildren: @unchecked Sendable {
    public static let shared = LiveChildren()
    private let lock = NSLock()
    /// Each child with a way to tell it still runs (a PID alone could have been reused once reaped).
    private var children: [pid_t: () -> Bool] = [:]

    private init() {
        atexit { LiveChildren.shared.stopAll() }
    }

    /// scripts/test marks the test process with QUAVER_TEST_RUN and finds leftovers by it: a child given
    /// an environment of its own keeps the mark.
    public static func marked(_ environment: [String: String]) -> [String: String] {
        var marked = environment
        marked["QUAVER_TEST_RUN"] = ProcessInfo.processInfo.environment["QUAVER_TEST_RUN"]
        return marked
    }

    public func add(_ pid: pid_t, isRunning: @escaping () -> Bool) { lock.withLock { children[pid] = isRunning } }
    public func remove(_ pid: pid_t) { lock.withLock { _ = children.removeValue(forKey: pid) } }

    /// SIGTERM to each still running, a moment to exit, then SIGKILL to those still there.
    public func stopAll() {
        let left = lock.withLock { () -> [pid_t: () -> Bool] in defer { children = [:] }; return children }
        var running = left.filter { $0.value() }
        running.keys.forEach { kill($0, SIGTERM) }
        let deadline = Date().addingTimeInterval(2)
        while !running.isEmpty && Date() < deadline {
            usleep(10_000)
            running = running.filter { $0.value() }
        }
        running.keys.forEach { kill($0, SIGKILL) }
    }
}

public struct TestHarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes. For waits on other processes.
@discardableResult
public func eventually(timeout: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
        if try condition() { return true }
        usleep(10_000)
    } while Date() < deadline
    return try condition()
}

/// Where `swift build` put the products: the test bundle lives in the same folder.
public var productsDirectory: URL {
    let bundle = Bundle(for: TemporaryDirectory.self).bundleURL
    return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
}
