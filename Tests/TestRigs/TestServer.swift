import Foundation
import Glibc

/// One of our Python test servers (test_servers.py, next to this file) on 127.0.0.1, stopped by PID when released.
public final class TestServer {
    public let port: UInt16
    public let folder: TemporaryDirectory
    private let child: ChildProcess

    /// `mode`: hostile, proxy, silent or h2only, with the `arguments` the script wants after its log (see the script).
    public init(_ mode: String, arguments: [String] = []) throws {
        folder = try TemporaryDirectory(prefix: "quaver-\(mode)")
        let portFile = folder.url.appendingPathComponent("port")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("test_servers.py")
        // Debian's interpreter, where its python3-h2 is (a python3 found first on PATH may lack it).
        child = try ChildProcess("/usr/bin/python3", [script.path, mode, portFile.path, folder.url.appendingPathComponent("requests.log").path] + arguments,
                                 logDirectory: folder.url, name: mode)
        guard eventually(timeout: 10, { FileManager.default.fileExists(atPath: portFile.path) }),
              let text = try? String(contentsOf: portFile, encoding: .utf8), let port = UInt16(text) else {
            throw TestHarnessError("\(mode) server did not start: \(child.standardError)")
        }
        self.port = port
    }

    deinit { child.stop() }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// The proxy's log (each absolute URL it was asked for), or the h2only server's ("path range").
    public var proxiedURLs: [String] { requestLog }

    public var requestLog: [String] {
        ((try? String(contentsOf: folder.url.appendingPathComponent("requests.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// The length of the hostile server's real file (`/good`), whose byte i is i % 251.
    public static let fileLength = 200_000
}

