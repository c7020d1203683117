import Foundation
import GStreamer
import RemoteMedia

/// The proxy of playbin's own network sources: souphttpsrc for streams and playlists, the ones hlsdemux
/// makes for each fragment, rtspsrc. libsoup takes no login from a proxy URL, so a proxy that asks for one
/// answered 407 and the stream failed; the login goes apart, in the sources' `proxy-id` and `proxy-pw`
/// (libsoup answers the proxy's challenge with them), and the URL without it in `proxy`.
struct SourceProxy: Sendable, Equatable {
    /// `scheme://host:port` without its login; nil when the sources find the proxy themselves (`http_proxy`).
    let url: String?
    let user: String?
    let password: String?

    /// From `[network] proxy`; without one, the login of `http_proxy`, which souphttpsrc reads by itself
    /// but without its login. Nil when there is nothing to set.
    static func forSources(configured: String?,
                           environment: [String: String] = ProcessInfo.processInfo.environment) -> SourceProxy? {
        if let configured { return SourceProxy(configured, keepingURL: true) }
        guard let variable = environment["http_proxy"] else { return nil }
        let proxy = SourceProxy(variable, keepingURL: false)
        return proxy.user == nil ? nil : proxy
    }

    /// Sets what `element` takes of it (playbin's `deep-element-added`, any thread).
    func apply(to element: Element) {
        if let url, element.hasProperty("proxy") { element.set("proxy", url) }
        guard let user, element.hasProperty("proxy-id") else { return }
        element.set("proxy-id", user)
        if let password, element.hasProperty("proxy-pw") { element.set("proxy-pw", password) }
    }
}

private extension SourceProxy {
    /// The login percent-decoded (`URLComponents`), as the proxy expects it in Basic or Digest.
    init(_ text: String, keepingURL: Bool) {
        let parts = URLComponents(string: text)
        url = keepingURL ? RemoteURL.withoutCredentials(text) : nil
        user = parts?.user
        password = parts?.password
    }
}
