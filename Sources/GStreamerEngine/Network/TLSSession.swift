import COpenSSL
import Glibc

/// TLS (OpenSSL) on a connected, blocking socket whose timeouts are already set (`SO_RCVTIMEO`).
///
/// The server's certificate is checked against the system's trust store
/// (`SSL_CTX_set_default_verify_paths`: /etc/ssl/certs, or the files named by `SSL_CERT_FILE` /
/// `SSL_CERT_DIR`) and against the host name, or the IP address, of the URL. A context per session:
/// connections are made once per track or Range request, and the environment is read each time.
final class TLSSession {
    private let context: OpaquePointer
    private let ssl: OpaquePointer

    /// Runs the handshake; throws `.tls` with OpenSSL's reason (an untrusted certificate, a name
    /// mismatch, no common protocol) or `.timeout`.
    init(socket fd: Int32, host: String) throws {
        _ = Self.ignoreBrokenPipes
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw HTTPConnection.Failure.tls(Self.lastError()) }
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw HTTPConnection.Failure.tls(Self.lastError())
        }
        self.context = context
        self.ssl = ssl
        SSL_CTX_set_default_verify_paths(context)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        quaver_ssl_ignore_unexpected_eof(context)
        SSL_set_verify(ssl, SSL_VERIFY_PEER, nil)
        if Self.isIPAddress(host) {
            // RFC 6066: no server name for an address; the certificate must name the address (SAN IP).
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
        } else {
            _ = quaver_ssl_set_server_name(ssl, host)
            SSL_set1_host(ssl, host)
        }
        SSL_set_fd(ssl, fd)
        ERR_clear_error()
        let result = SSL_connect(ssl)
        if result != 1 { throw failure(of: result) }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    /// Decrypted bytes into `buffer`; 0 at the end of the stream (or after `shutdown` of the socket).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        ERR_clear_error()
        let count = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if count > 0 { return Int(count) }
        let code = SSL_get_error(ssl, count)
        if code == SSL_ERROR_ZERO_RETURN || (code == SSL_ERROR_SYSCALL && errno == 0) { return 0 }
        throw failure(of: count)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        ERR_clear_error()
        let count = SSL_write(ssl, bytes.baseAddress, Int32(bytes.count))
        if count > 0 { return Int(count) }
        throw failure(of: count)
    }

    /// What a failed call means: a socket timeout surfaces as WANT_READ/WANT_WRITE on a blocking socket.
    private func failure(of result: Int32) -> HTTPConnection.Failure {
        let code = SSL_get_error(ssl, result)
        switch code {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return .timeout
        case SSL_ERROR_SYSCALL where errno == EAGAIN || errno == EWOULDBLOCK: return .timeout
        case SSL_ERROR_SYSCALL where errno != 0: return .connect(String(cString: strerror(errno)))
        default:
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK { return .tls("certificate: \(String(cString: X509_verify_cert_error_string(verify)))") }
            return .tls(Self.lastError())
        }
    }

    /// OpenSSL writes with write(2), not send(2) with MSG_NOSIGNAL: a server that has gone would raise
    /// SIGPIPE and end the process. Ignored process-wide, as libdbus does for its own connections.
    private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    private static func lastError() -> String {
        let code = ERR_get_error()
        guard code != 0 else { return "handshake failed" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(cString: text)
    }

    private static func isIPAddress(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }
}
