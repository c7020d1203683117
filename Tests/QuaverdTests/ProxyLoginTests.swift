import Foundation
import TestSupport
import XCTest

/// A proxy that asks for a login (ours, on 127.0.0.1), given with it in `[network] proxy`, in the real
/// daemon. With the media cache off, a remote file comes through our download into a scratch cache that keeps
/// nothing (libcurl, the login in the proxy's URL): it plays through the proxy, and the password reaches no log
/// line. Playbin's own source gets the login apart (SourceProxyTests, HLSTests).
final class ProxyLoginTests: XCTestCase {
    func testARemoteFileWithTheCacheOffPlaysThroughAProxyThatAsksForALogin() throws {
        let files = try TemporaryDirectory(prefix: "quaverd-www")
        try FileManager.default.copyItem(at: try Media.fixtures().mp3, to: files.url.appendingPathComponent("song.mp3"))
        let server = try NginxServer(root: files.url)
        let proxy = try TestServer("proxy", arguments: ["quaver:s3cr%t"])
        let home = try TemporaryDirectory(prefix: "quaverd-home")
        try SecretsAndPrivacyTests.writeSettings(
            "[network]\nproxy = \"http://quaver:s3cr%25t@127.0.0.1:\(proxy.port)\"\ncache-size-mb = 0\n", in: home)
        let daemon = try RunningDaemon(home: home)
        let url = server.url("song.mp3")
        try daemon.playerctl("open", url)
        daemon.waitUntil("playing through the proxy") { daemon.status == "Playing" && daemon.positionSeconds > 0.5 }
        XCTAssertTrue(proxy.requestLog.contains(url), "\(proxy.requestLog)")
        XCTAssertEqual(server.accessLog.count, 1, "\(server.accessLog)")
        XCTAssertFalse(daemon.process.standardError.contains("s3cr"), daemon.logTail)
    }
}
