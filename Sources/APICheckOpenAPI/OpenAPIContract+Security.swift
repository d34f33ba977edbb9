import APICheckCrawler
import APICheckFindings

extension OpenAPIContract {
    /// A status the operation does not document. A 401 or 403 of an operation that requires
    /// credentials is the document's security at work, not an undocumented status: the crawl
    /// reports it as needing credentials (or, when they were given, as a link that does not
    /// resolve), so it is no `openapi-status` finding. A 401 of an operation that requires none
    /// is one, and says so.
    func undocumentedStatus(_ status: Int, of operation: OpenAPIOperation) -> [ContractViolation] {
        if status == 401 || status == 403, document.security.requiresCredentials(operation) { return [] }
        let listed = operation.responses.map(\.status).joined(separator: ", ")
        let security = status == 401 ? "; the document requires no credentials for it (no security requirement)" : ""
        return [ContractViolation(
            rule: .openAPIStatus, expected: "\(operation.name): \(listed)", actual: String(status),
            message: "\(operation.name) answered \(status), which the document does not list (it lists \(listed.isEmpty ? "none" : listed))\(security)")]
    }

    /// `needs credentials: scheme bearerAuth (HTTP bearer: --header-from-env …)` for a 401 or 403
    /// of a documented operation that requires credentials the run does not send; `nil` otherwise.
    public func credentialsNeeded(method: String, path: String, status: Int) -> String? {
        guard case .operation(let operation) = document.operation(method: method, path: path) else { return nil }
        return document.security.credentialsNeeded(for: operation, status: status, given: credentials)
    }
}
