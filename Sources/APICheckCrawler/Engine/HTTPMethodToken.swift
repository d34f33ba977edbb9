import APICheckHypermedia

/// What `method-valid` knows about methods (RFC 9110 §9 and §5.6.2, PATCH from RFC 5789).
package enum HTTPMethodToken {
    static let standard: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]
    /// Methods a crawl may send without `--unsafe` (RFC 9110 §9.2.1).
    package static let safe: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    /// Why `method` is not acceptable, or `nil` when it is.
    package static func problem(with method: String, allowedVendorTokens: Set<String>) -> String? {
        if standard.contains(method) || allowedVendorTokens.contains(method) { return nil }
        if method.isEmpty { return "the method is empty" }
        let tchar = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        guard method.allSatisfy(tchar.contains) else {
            return "'\(method)' is not an HTTP method token (RFC 9110 §5.6.2)"
        }
        if standard.contains(method.uppercased()) {
            return "methods are case-sensitive: '\(method)' is not '\(method.uppercased())' (RFC 9110 §9.1)"
        }
        return "'\(method)' is not an HTTP method (RFC 9110 §9, PATCH from RFC 5789); allow a vendor token with --allow-method \(method)"
    }
}
