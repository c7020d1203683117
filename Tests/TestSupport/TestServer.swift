import Foundation
import Glibc

/// One of our Python test servers (test_servers.py, next to this file) on 127.0.0.1, stopped by PID when released.
public final class TestServer {
    public let port: UInt16
    public let folder: TemporaryDirectory
    private let child: ChildProcess

    /// `mode`: hostile, proxy or silent (see the script).
    public init(_ mode: String) throws {
        folder = try TemporaryDirectory(prefix: "quaver-\(mode)")
        let portFile = folder.url.appendingPathComponent("port")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("test_servers.py")
        child = try ChildProcess("python3", [script.path, mode, portFile.path, folder.url.appendingPathComponent("requests.log").path],
                                 logDirectory: folder.url, name: mode)
        guard eventually(timeout: 10, { FileManager.default.fileExists(atPath: portFile.path) }),
              let text = try? String(contentsOf: portFile, encoding: .utf8), let port = UInt16(text) else {
            throw TestHarnessError("\(mode) server did not start: \(child.standardError)")
        }
        self.port = port
    }

    deinit { child.stop() }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// The proxy's log: each absolute URL it was asked for.
    public var proxiedURLs: [String] {
        ((try? String(contentsOf: folder.url.appendingPathComponent("requests.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// The length of the hostile server's real file (`/good`), whose byte i is i % 251.
    public static let fileLength = 200_000
}

