@testable import GStreamerEngine
import XCTest

/// What playbin's network sources are given of a proxy: the URL without its login, the login apart.
final class SourceProxyTests: XCTestCase {
    func testTheConfiguredProxyLosesItsLoginToProxyIDAndPassword() {
        let proxy = SourceProxy.forSources(configured: "http://alice:p%40ss%20w@proxy.example:3128", environment: [:])
        XCTAssertEqual(proxy, SourceProxy(url: "http://proxy.example:3128", user: "alice", password: "p@ss w"))
        XCTAssertEqual(SourceProxy.forSources(configured: "http://proxy.example:3128", environment: [:]),
                       SourceProxy(url: "http://proxy.example:3128", user: nil, password: nil))
    }

    /// souphttpsrc reads `http_proxy` by itself: only its login is set, and nothing without one.
    func testOnlyTheLoginOfHTTPProxyIsSet() {
        XCTAssertEqual(SourceProxy.forSources(configured: nil, environment: ["http_proxy": "http://bob:pw@p.example:8080"]),
                       SourceProxy(url: nil, user: "bob", password: "pw"))
        XCTAssertNil(SourceProxy.forSources(configured: nil, environment: ["http_proxy": "http://p.example:8080"]))
        XCTAssertNil(SourceProxy.forSources(configured: nil, environment: [:]))
    }
}
