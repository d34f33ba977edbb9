import Foundation
import NIOHTTP1

/// Who may call the admin API, now that a browser page (the live page) calls it too. In order:
/// 1. `Host` must name this server: an IP address, `localhost`, or a name it was given
///    (``StubServer/Configuration/adminHosts``, `--host`, `--base-url`). A page on
///    `evil.example` that rebinds its name to 127.0.0.1 sends `Host: evil.example`: refused
///    (DNS rebinding).
/// 2. `Origin`, when a browser sends one, must be the server's own origin (same scheme, host and
///    port as `Host`): another site's page cannot script the admin API (CSRF), and `Origin: null`
///    (sandboxed frames, `file://`) is refused too. Scripts and curl send no `Origin`.
/// 3. With an admin token, `Authorization: Bearer <token>` from anyone; without one, loopback
///    peers only. The token is taken from that header alone, never from the URL or a cookie,
///    where it would leak into logs and be sent by the browser on its own.
struct AdminGuard: Sendable {
    let allowedNames: Set<String>
    let scheme: String
    let token: String?

    init(configuration: StubServer.Configuration, scheme: String) {
        var names: Set<String> = ["localhost"]
        for name in configuration.adminHosts + [configuration.host] { names.insert(Self.normalized(name)) }
        if let baseURL = configuration.baseURL, let host = URL(string: baseURL)?.host { names.insert(Self.normalized(host)) }
        self.allowedNames = names
        self.scheme = scheme
        self.token = configuration.adminToken
    }

    enum Refusal: Equatable {
        case foreignHost(String)
        case crossOrigin(String)
        case tokenRequired
        case notLoopback
    }

    /// `tokenNeeded: false` for the live page's document, which holds no data and asks for the token.
    func check(headers: HTTPHeaders, peerIsLoopback: Bool, tokenNeeded: Bool = true) -> Refusal? {
        let host = headers.first(name: "host")
        if let host, !accepts(host: host) { return .foreignHost(host) }
        if let origin = headers.first(name: "origin"), !isSameOrigin(origin, host: host) { return .crossOrigin(origin) }
        if let token {
            guard tokenNeeded else { return nil }
            guard let authorization = headers.first(name: "authorization"), authorization.hasPrefix("Bearer "),
                AdminAPI.constantTimeEquals(Array(authorization.utf8.dropFirst(7)), Array(token.utf8))
            else { return .tokenRequired }
        } else if !peerIsLoopback {
            return .notLoopback
        }
        return nil
    }

    /// Whether `Host` (`name`, `name:port`, `[::1]:port`) names this server.
    func accepts(host: String) -> Bool {
        let (name, _) = ServerCore.splitHost(host)
        let normalized = Self.normalized(name)
        return Self.isIPAddress(normalized) || allowedNames.contains(normalized)
    }

    /// `Origin` is `scheme://host[:port]`; the same origin as the request's `Host` is accepted.
    func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, origin != "null" else { return false }
        let expected = "\(scheme)://\(host)".lowercased()
        if origin.lowercased() == expected { return true }
        // A default port may be left out of either.
        let defaultPort = scheme == "https" ? ":443" : ":80"
        return origin.lowercased() + defaultPort == expected || origin.lowercased() == expected + defaultPort
    }

    static func normalized(_ name: String) -> String {
        var name = name.lowercased()
        if name.hasSuffix("."), name.count > 1 { name.removeLast() }  // `localhost.` is `localhost`
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        return name
    }

    /// A literal IPv4 or IPv6 address: DNS rebinding needs a name, so an address is always this
    /// machine's (the connection reached it).
    static func isIPAddress(_ name: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return name.withCString { inet_pton(AF_INET, $0, &v4) == 1 || inet_pton(AF_INET6, $0, &v6) == 1 }
    }
}
