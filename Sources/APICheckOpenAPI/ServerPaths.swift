import Foundation
import OpenAPIKit

/// The URL paths the document's servers put in front of every path template: `servers[].url`
/// with each variable at its default, reduced to its path (`https://{host}/api/v1` → `/api/v1`,
/// `/v2` → `/v2`). Without servers the base is `/` (OpenAPI's default server).
enum ServerPaths {
    static func basePaths(of servers: [OpenAPIKit.OpenAPI.Server]) -> [String] {
        var paths: [String] = []
        for server in servers {
            var text = server.urlTemplate.absoluteString
            for (name, variable) in server.variables { text = text.replacingOccurrences(of: "{\(name)}", with: variable.default) }
            let path = basePath(of: text)
            if !paths.contains(path) { paths.append(path) }
        }
        if paths.isEmpty { paths = [""] }
        return paths.sorted { $0.count > $1.count }
    }

    /// The hosts of the servers' absolute URLs (variables at their defaults), lower-cased.
    static func hosts(of servers: [OpenAPIKit.OpenAPI.Server]) -> Set<String> {
        var hosts = Set<String>()
        for server in servers {
            var text = server.urlTemplate.absoluteString
            for (name, variable) in server.variables { text = text.replacingOccurrences(of: "{\(name)}", with: variable.default) }
            if let host = URL(string: text)?.host?.lowercased(), !host.isEmpty { hosts.insert(host) }
        }
        return hosts
    }

    /// `https://h/api/` → `/api`; `/v1` → `/v1`; `https://h` → `` (the root).
    static func basePath(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest[(rest.firstIndex(of: "/") ?? rest.endIndex)...]
        }
        rest = rest.prefix { $0 != "?" && $0 != "#" }
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        if !rest.isEmpty, !rest.hasPrefix("/") { return "/" + rest }
        return String(rest)
    }
}
