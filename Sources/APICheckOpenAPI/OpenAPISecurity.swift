import APICheckJSON
import APICheckModel
import Foundation
import OpenAPIKit

/// The document's security: its schemes (`components.securitySchemes`) and each operation's
/// effective requirement (its own `security`, else the document's), read once with OpenAPIKit.
///
/// A requirement is a list of alternatives, each a set of schemes that must all be satisfied;
/// an empty alternative (`- {}`) makes credentials optional, and an empty list (`security: []`)
/// means the operation needs none.
public struct OpenAPISecurity: Sendable {
    /// The schemes by name, as the document declares them.
    public let schemes: [String: OpenAPISecurityScheme]
    /// Each operation's effective requirement, by ``OpenAPIOperation/name`` (`GET /me`).
    let requirements: [String: [[String]]]

    init(document: OpenAPIKit.OpenAPI.Document, rawPaths: [OpenAPIKit.OpenAPI.Path: String]) {
        var schemes: [String: OpenAPISecurityScheme] = [:]
        for (key, either) in document.components.securitySchemes {
            guard let scheme = document.components[either] else { continue }
            schemes[key.rawValue] = OpenAPISecurityScheme(name: key.rawValue, type: scheme.type)
        }
        self.schemes = schemes
        let documentWide = document.security.map(Self.alternative)
        var requirements: [String: [[String]]] = [:]
        for (path, item) in document.paths {
            guard let pathItem = document.components[item] else { continue }
            let rawPath = rawPaths[path] ?? path.rawValue
            for endpoint in pathItem.endpoints {
                let name = "\(endpoint.method.rawValue.uppercased()) \(rawPath)"
                requirements[name] = endpoint.operation.security.map { $0.map(Self.alternative) } ?? documentWide
            }
        }
        self.requirements = requirements
    }

    /// The paths as the document writes them, by OpenAPIKit's (which may normalise them), as
    /// ``OperationBuilder`` names operations.
    static func rawPaths(_ node: JSONNode) -> [OpenAPIKit.OpenAPI.Path: String] {
        var raw: [OpenAPIKit.OpenAPI.Path: String] = [:]
        for member in node["paths"]?.members ?? [] where raw[OpenAPIKit.OpenAPI.Path(rawValue: member.key)] == nil {
            raw[OpenAPIKit.OpenAPI.Path(rawValue: member.key)] = member.key
        }
        return raw
    }

    init(schemes: [String: OpenAPISecurityScheme] = [:], requirements: [String: [[String]]] = [:]) {
        self.schemes = schemes
        self.requirements = requirements
    }

    /// The scheme names of one alternative, sorted (a requirement object's order is not meaningful).
    private static func alternative(_ requirement: OpenAPIKit.OpenAPI.SecurityRequirement) -> [String] {
        requirement.keys.compactMap(\.name).sorted()
    }

    /// The effective requirement of `operation`: `[]` when it needs no credentials.
    public func requirement(of operation: OpenAPIOperation) -> [[String]] {
        requirements[operation.name] ?? []
    }

    /// Whether `operation` needs credentials: it has a requirement, and no alternative is empty.
    public func requiresCredentials(_ operation: OpenAPIOperation) -> Bool {
        let requirement = requirement(of: operation)
        return !requirement.isEmpty && !requirement.contains { $0.isEmpty }
    }

    /// The schemes to pass for `operation` when `credentials` satisfy none of its alternatives
    /// (those of its first alternative, which documents usually list first as the usual one);
    /// `nil` when it needs none or they are given.
    public func missingSchemes(for operation: OpenAPIOperation, given credentials: OpenAPICredentials) -> [OpenAPISecurityScheme]? {
        guard requiresCredentials(operation) else { return nil }
        let requirement = requirement(of: operation)
        let satisfied = requirement.contains { alternative in
            alternative.allSatisfy { name in schemes[name].map { $0.isSatisfied(by: credentials) } ?? false }
        }
        guard !satisfied, let first = requirement.first else { return nil }
        return first.map { schemes[$0] ?? OpenAPISecurityScheme(name: $0, kind: .undeclared) }
    }

    /// `needs credentials: scheme bearerAuth (…how to pass it…)`, for a 401 or 403 of an
    /// operation whose credentials were not given; `nil` otherwise.
    public func credentialsNeeded(for operation: OpenAPIOperation, status: Int, given credentials: OpenAPICredentials) -> String? {
        guard status == 401 || status == 403, let missing = missingSchemes(for: operation, given: credentials) else { return nil }
        let schemes = missing.map { "scheme \($0.name) (\($0.howToPass))" }.joined(separator: " and ")
        return "needs credentials: \(schemes)"
    }
}

/// One security scheme, and how a credential for it reaches the API through apicheck's options.
public struct OpenAPISecurityScheme: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A key in a header, a query parameter or a cookie (`in`: `header`, `query`, `cookie`).
        case apiKey(name: String, in: String)
        /// HTTP authentication (`bearer`, `basic`, …) in `Authorization`.
        case http(scheme: String)
        case oauth2
        case openIdConnect
        case mutualTLS
        /// A requirement names a scheme the components do not declare.
        case undeclared
    }

    public var name: String
    public var kind: Kind

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    init(name: String, type: OpenAPIKit.OpenAPI.SecurityScheme.SecurityType) {
        self.name = name
        switch type {
        case .apiKey(let key, let location): kind = .apiKey(name: key, in: location.rawValue)
        case .http(let scheme, _): kind = .http(scheme: scheme.lowercased())
        case .oauth2: kind = .oauth2
        case .openIdConnect: kind = .openIdConnect
        case .mutualTLS: kind = .mutualTLS
        }
    }

    /// Whether `credentials` carry this scheme's credential (its header, query parameter or
    /// cookie; `Authorization` for HTTP, OAuth 2 and OpenID Connect). Mutual TLS is not a header:
    /// never satisfied here.
    public func isSatisfied(by credentials: OpenAPICredentials) -> Bool {
        switch kind {
        case .apiKey(let key, "header"): credentials.headers.contains(key.lowercased())
        case .apiKey(let key, "query"): credentials.queryNames.contains(key)
        case .apiKey(let key, "cookie"): credentials.cookies.contains(key)
        case .apiKey: false
        case .http, .oauth2, .openIdConnect: credentials.headers.contains("authorization")
        case .mutualTLS, .undeclared: false
        }
    }

    /// How to pass it to apicheck, in words and options.
    public var howToPass: String {
        switch kind {
        case .apiKey(let key, "header"):
            "an API key in the \(key) header: --header-from-env '\(key): $API_KEY'"
        case .apiKey(let key, "cookie"):
            "an API key in the \(key) cookie: --header-from-env 'Cookie: \(key)=$API_KEY'"
        case .apiKey(let key, let location):
            "an API key in the \(key) \(location) parameter, which apicheck cannot add: put it in the crawl's root URL"
        case .http("basic"):
            "HTTP basic: --header-from-env 'Authorization: Basic $CREDENTIALS' (base64 of user:password)"
        case .http("bearer"):
            "HTTP bearer: --header-from-env 'Authorization: Bearer $TOKEN'"
        case .http(let scheme):
            "HTTP \(scheme): --header-from-env 'Authorization: \(scheme.prefix(1).uppercased() + scheme.dropFirst()) $CREDENTIALS'"
        case .oauth2, .openIdConnect:
            "an OAuth 2 access token: --header-from-env 'Authorization: Bearer $TOKEN'"
        case .mutualTLS:
            "a client certificate (mutual TLS), which apicheck does not present"
        case .undeclared:
            "not declared in components.securitySchemes"
        }
    }
}

/// The credentials a run was given, as the security schemes see them: header names
/// (lower-cased), the names in a `Cookie` header, and query parameter names.
public struct OpenAPICredentials: Sendable, Hashable {
    public var headers: Set<String>
    public var cookies: Set<String>
    public var queryNames: Set<String>

    public init(headers: Set<String> = [], cookies: Set<String> = [], queryNames: Set<String> = []) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.cookies = cookies
        self.queryNames = queryNames
    }

    /// From the headers of `--header` and `--header-from-env` (a `Cookie` header names cookies).
    public init(headers: [HTTPHeader], queryNames: Set<String> = []) {
        var cookies = Set<String>()
        for header in headers where header.name.caseInsensitiveEquals("Cookie") {
            for pair in header.value.split(separator: ";") {
                let name = pair.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                if !name.isEmpty { cookies.insert(name) }
            }
        }
        self.init(headers: Set(headers.map(\.name)), cookies: cookies, queryNames: queryNames)
    }
}
