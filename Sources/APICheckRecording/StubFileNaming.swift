import APICheckModel
import Foundation

/// Readable, safe file names for recorded stubs, from the request: `GET /orders/42?page=2` →
/// `orders/42.q-page-2.json`, `POST /orders` → `orders.post.json`, `GET /` → `root.json`.
///
/// Every component is made of `[A-Za-z0-9._-]` only, never `.` or `..`, and bounded in length
/// (a long or unreadable part becomes a short hash), so no request can name a file outside the
/// recording's folder or one the file system refuses.
enum StubFileNaming {
    static let maximumComponentLength = 64

    /// The stub file's path relative to the recording folder, without extension.
    static func baseName(method: String, path: String, query: [StubRequest.QueryItem], matchedHeaders: [HTTPHeader]) -> [String] {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { component(String($0)) }
        if segments.last == "" { segments.removeLast() }
        segments = segments.map { $0.isEmpty ? "_" : $0 }
        if segments.isEmpty { segments = ["root"] }
        if path.hasSuffix("/"), path != "/" { segments.append("index") }
        var last = segments.removeLast()
        if method != "GET" { last += "." + component(method.lowercased()) }
        if !query.isEmpty {
            let text = query.map { item in item.value.map { "\(item.name)-\($0)" } ?? item.name }.joined(separator: "-")
            let readable = component(text)
            last += ".q-" + (readable.count <= 40 && readable == text ? readable : hash(query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")))
        }
        if !matchedHeaders.isEmpty {
            last += ".h-" + hash(matchedHeaders.map { "\($0.name.lowercased()):\($0.value)" }.joined(separator: "\n"))
        }
        return segments + [last]
    }

    /// One path component as a file name component.
    static func component(_ text: String) -> String {
        var result = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": scalar
            default: "_"
            }
        }))
        // Leading dots would hide the file or name a parent.
        while result.hasPrefix(".") { result = "_" + result.dropFirst() }
        if result.count > maximumComponentLength {
            result = String(result.prefix(maximumComponentLength - 9)) + "-" + hash(text)
        }
        return result
    }

    /// 8 hex digits of FNV-1a: stable across runs and machines (Swift's `Hasher` is seeded).
    static func hash(_ text: String) -> String {
        String(FNV1a.hexDigest(text.utf8).prefix(8))
    }

    /// The path as a stub file writes it: characters that stub paths give a meaning (`{`, `}`,
    /// `*`) and anything outside RFC 3986's path characters are percent-encoded, which stub paths
    /// read as literal characters.
    static func stubPath(_ path: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()+,;=:@/")
        allowed.remove(charactersIn: "{}*")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
