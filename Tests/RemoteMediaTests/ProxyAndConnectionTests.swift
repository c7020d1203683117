import Foundation
import RemoteMedia
import TestSupport
import XCTest

/// Proxies from the environment and from the options; connection reuse and HTTP/2 against nginx.
final class ProxyAndConnectionTests: XCTestCase {
    private let proxyVariables = ["http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"]
    private var savedEnvironment: [String: String] = [:]

    override func setUp() {
        for name in proxyVariables {
            if let value = ProcessInfo.processInfo.environment[name] { savedEnvironment[name] = value }
            unsetenv(name)
        }
    }

    override func tearDown() {
        for name in proxyVariables { unsetenv(name) }
        for (name, value) in savedEnvironment { setenv(name, value, 1) }
    }

    func testHTTPProxyVariableIsUsedAndNoProxyHostsGoDirect() throws {
        let origin = try TestServer("hostile")
        let proxy = try TestServer("proxy")
        setenv("http_proxy", "http://127.0.0.1:\(proxy.port)", 1)
        let proxied = origin.url("good?through-proxy")
        let viaProxy = try DownloadRun(proxied)
        XCTAssertTrue(viaProxy.completes(within: 10), "\(viaProxy.events)")
        XCTAssertTrue(viaProxy.cachedBytesAreReal(url: proxied))
        XCTAssertEqual(proxy.proxiedURLs, [proxied])

        setenv("no_proxy", "127.0.0.1", 1)
        let direct = try DownloadRun(origin.url("good?direct"))
        XCTAssertTrue(direct.completes(within: 10), "\(direct.events)")
        XCTAssertEqual(proxy.proxiedURLs, [proxied], "a no_proxy host went through the proxy")
    }

    func testTheProxyOptionIsUsedWithoutAnyVariable() throws {
        let origin = try TestServer("hostile")
        let proxy = try TestServer("proxy")
        let url = origin.url("good?configured")
        let run = try DownloadRun(url, options: DownloadOptions(retries: 1, timeout: 2, retryDelay: 0.1,
                                                                proxy: "http://127.0.0.1:\(proxy.port)"))
        XCTAssertTrue(run.completes(within: 10), "\(run.events)")
        XCTAssertEqual(proxy.proxiedURLs, [url])
    }

    /// Five seeks far from the download over https: each opens a Range request, all on one TCP
    /// connection (HTTP/2: a request cut short ends its stream, not the connection), as nginx's
    /// `$connection` shows; the file then completes with the real bytes. Each seek is made once the bytes the
    /// one before asked for reached the reader: that request is under way, and the download (100 kB/s) has not
    /// got far from it. (Paced by 0.3 s sleeps instead, a late test found the download past an offset already,
    /// and no Range request was made for it.)
    func testSeeksIntoOneFileReuseOneConnectionOverHTTP2() throws {
        let www = try TemporaryDirectory(prefix: "quaver-www")
        let length = 600_000
        try Data((0..<length).map { UInt8($0 % 251) }).write(to: www.url.appendingPathComponent("file.bin"))
        let server = try NginxServer(root: www.url, slowRate: 100_000)
        setenv("SSL_CERT_FILE", server.certificate.path, 1)
        defer { unsetenv("SSL_CERT_FILE") }
        let url = server.secureURL("slow/file.bin")
        let run = try DownloadRun(url, options: DownloadOptions(retries: 1, timeout: 5, retryDelay: 0.1))
        run.download.start()
        XCTAssertTrue(eventually(timeout: 10) { run.events.contains(.ready(size: UInt64(length))) }, "\(run.events)")
        let reader = RecordingSink()
        run.download.attach(reader) { _ in }
        let offsets = [500_000, 250_000, 400_000, 120_000, 550_000]
        for offset in offsets {
            reader.bytes = []
            _ = run.download.seekData(UInt64(offset))
            run.download.needData(1)
            XCTAssertTrue(eventually(timeout: 10) { reader.bytes == [UInt8(offset % 251)] }, "no byte from \(offset): \(run.events)")
        }
        XCTAssertTrue(eventually(timeout: 20) { run.events.contains(.complete) }, "\(run.events)")
        run.download.close()
        let requests = server.accessLog
        for offset in offsets {
            XCTAssertTrue(requests.contains { $0.range?.hasPrefix("bytes=\(offset)-") ?? false }, "no Range from \(offset): \(requests)")
        }
        XCTAssertEqual(Set(requests.map(\.connection)).count, 1, "\(requests)")
        XCTAssertTrue(requests.allSatisfy { $0.request.hasSuffix("HTTP/2.0") }, "\(requests)")
        XCTAssertTrue(run.cachedBytesAreReal(url: url, length: length))
    }
}
