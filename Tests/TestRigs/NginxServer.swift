import Foundation
import Glibc

/// nginx on 127.0.0.1 serving `root`, with its own prefix, config, pid and logs in a temporary folder,
/// in the foreground (`daemon off`, `master_process off`), stopped by PID. The same files are served over
/// http on `port` and https on `tlsPort` (a self-signed certificate for 127.0.0.1 made at start:
/// `certificate`, the file to trust). `/slow/` serves them throttled to `slowRate` bytes per second
/// (`limit_rate`); `/moved/x` redirects (302) to `/x`, `/to-https/x` (301) to `x` over https;
/// `/private/` asks for HTTP Basic credentials `quaver:secret` (or `hostile:` `hostilePassword`).
public final class NginxServer {
    /// A password with every character that once ended the masking early: quotes, `<`, `>`, a backtick,
    /// a space. Each piece between them is a marker a test can search for.
    public static let hostilePassword = "Pw1'Pw2\"Pw3<Pw4>Pw5`Pw6 Pw7"

    public let port: UInt16
    public let tlsPort: UInt16
    public let root: URL
    private let prefix: TemporaryDirectory
    private var child: ChildProcess?
    private let slowRate: Int

    public init(root: URL, slowRate: Int = 16 * 1024) throws {
        self.root = root
        self.slowRate = slowRate
        prefix = try TemporaryDirectory(prefix: "quaver-nginx")
        port = try Self.freePort()
        tlsPort = try Self.freePort()
        try FileManager.default.createDirectory(at: prefix.url.appendingPathComponent("logs"), withIntermediateDirectories: true)
        try makeCertificate()
        try "quaver:\(try Self.apr1Hash("secret"))\nhostile:\(try Self.apr1Hash(Self.hostilePassword))\n".write(to: prefix.url.appendingPathComponent("htpasswd"),
                                                             atomically: true, encoding: .utf8)
        try config.write(to: prefix.url.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    deinit { stop() }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }
    public func secureURL(_ path: String) -> String { "https://127.0.0.1:\(tlsPort)/\(path)" }

    /// The server's self-signed certificate (PEM): what a client must trust (`SSL_CERT_FILE`).
    public var certificate: URL { prefix.url.appendingPathComponent("cert.pem") }

    private func makeCertificate() throws {
        let key = prefix.url.appendingPathComponent("key.pem").path
        try Fixtures.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                     "-keyout", key, "-out", certificate.path, "-days", "2", "-subj", "/CN=127.0.0.1",
                                     "-addext", "subjectAltName=IP:127.0.0.1"])
    }

    /// Starts nginx (again, after `stop`) and waits until it accepts connections.
    public func start() throws {
        let started = try ChildProcess("nginx", ["-p", prefix.path, "-c", "nginx.conf", "-e", "stderr"],
                                       logDirectory: prefix.url, name: "nginx")
        child = started
        guard eventually(timeout: 10, { Self.accepts(port: port) }) else {
            throw TestHarnessError("nginx did not start: \(started.standardError)")
        }
    }

    public func stop() {
        child?.stop()
        child = nil
    }

    /// Kills nginx at once (SIGKILL): open connections are reset mid-transfer, as when a server dies.
    /// (On SIGTERM a throttled transfer may still run to its end first.)
    public func kill() {
        child?.send(SIGKILL)
        child?.waitForExit(timeout: 5)
        child = nil
    }

    /// The access log, one entry per request.
    public var accessLog: [AccessLogEntry] {
        let text = (try? String(contentsOf: prefix.url.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap(AccessLogEntry.init)
    }

    private var config: String {
        """
        daemon off;
        master_process off;
        worker_processes 1;
        pid \(prefix.path)/nginx.pid;
        error_log \(prefix.path)/logs/error.log;
        events { worker_connections 64; }
        http {
            types { audio/mpeg mp3; audio/flac flac; application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
            log_format quaver '$request|$status|$body_bytes_sent|$http_range|$scheme|$http_user_agent|$connection';
            access_log \(prefix.path)/logs/access.log quaver;
            client_body_temp_path \(prefix.path)/body;
            proxy_temp_path \(prefix.path)/proxy;
            fastcgi_temp_path \(prefix.path)/fastcgi;
            uwsgi_temp_path \(prefix.path)/uwsgi;
            scgi_temp_path \(prefix.path)/scgi;
            server {
                listen 127.0.0.1:\(port);
                listen 127.0.0.1:\(tlsPort) ssl http2;
                ssl_certificate \(certificate.path);
                ssl_certificate_key \(prefix.path)/key.pem;
                root \(root.path);
                location /slow/ { alias \(root.path)/; limit_rate \(slowRate); }
                location /error500/ { return 500; }
                location ~ ^/moved/(.*)$ { return 302 /$1; }
                location /private/ { alias \(root.path)/; auth_basic "quaver"; auth_basic_user_file \(prefix.path)/htpasswd; }
                location ~ ^/to-https/(.*)$ { return 301 https://127.0.0.1:\(tlsPort)/$1; }
            }
        }
        """
    }

    /// An htpasswd line's hash (`openssl passwd -apr1`).
    private static func apr1Hash(_ password: String) throws -> String {
        let result = try ChildProcess.run("openssl", ["passwd", "-apr1", password])
        guard result.status == 0 else { throw TestHarnessError("openssl passwd failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public static func accepts(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A port the kernel has just handed out (bind to port 0), free for the server to take.
    public static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw TestHarnessError("cannot find a free port") }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// One line of the test server's access log.
public struct AccessLogEntry: CustomStringConvertible {
    public let request: String
    public let status: Int
    public let bodyBytes: Int
    /// The Range header, `nil` when absent.
    public let range: String?
    /// `http` or `https`.
    public let scheme: String
    /// `Quaver` for our own client, `GStreamer souphttpsrc …` for playbin's.
    public let userAgent: String
    /// nginx's serial number of the TCP connection that carried the request (`$connection`).
    public let connection: Int

    init?(_ line: Substring) {
        let fields = line.split(separator: "|", omittingEmptySubsequences: false)
        guard fields.count == 7, let status = Int(fields[1]), let bytes = Int(fields[2]),
              let connection = Int(fields[6]) else { return nil }
        request = String(fields[0])
        self.status = status
        bodyBytes = bytes
        range = fields[3] == "-" ? nil : String(fields[3])
        scheme = String(fields[4])
        userAgent = String(fields[5])
        self.connection = connection
    }

    public var description: String { "\(request) \(status) \(bodyBytes) \(range ?? "-") \(scheme) \(userAgent)" }
}

extension NginxServer {
    /// nginx on a folder of its own holding the fixtures' tagged MP3 as `song.mp3`; the folder goes when the
    /// caller releases it.
    public static func servingTheSong() throws -> (folder: TemporaryDirectory, server: NginxServer) {
        let folder = try TemporaryDirectory(prefix: "quaverd-www")
        try FileManager.default.copyItem(at: try Fixtures.shared().mp3, to: folder.url.appendingPathComponent("song.mp3"))
        return (folder, try NginxServer(root: folder.url))
    }
}
