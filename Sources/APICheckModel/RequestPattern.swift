import APICheckJSON
import Foundation

/// What a stub requires of a request. Matchers are data, so they can be printed, compared,
/// serialised and explained in a near-miss report.
public struct RequestPattern: Sendable, Hashable {
    /// Upper-cased method; `nil` matches any method.
    public var method: String?
    public var path: PathPattern
    public var query: [ValueConstraint]
    public var headers: [ValueConstraint]
    public var body: [BodyConstraint]
    /// Set only when the stub asks to match the origin too (`match-host="true"`).
    public var origin: OriginConstraint?
    /// A concrete request target the stub answers (`/orders/42?page=1`), for a templated or glob
    /// path: what `apicheck verify` sends to the live API. Not part of matching.
    public var example: String?

    public init(
        method: String?, path: PathPattern, query: [ValueConstraint] = [], headers: [ValueConstraint] = [],
        body: [BodyConstraint] = [], origin: OriginConstraint? = nil, example: String? = nil
    ) {
        self.method = method?.uppercased()
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.origin = origin
        self.example = example
    }

    /// How many constraints beyond method and path: more is more specific.
    public var constraintCount: Int {
        query.count + headers.count + body.count + (origin == nil ? 0 : 1)
    }
}

/// A query parameter or header that must be present, with a value when one is given.
public struct ValueConstraint: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    /// `nil`: present with any value.
    public var value: String?

    public init(name: String, value: String? = nil) {
        self.name = name
        self.value = value
    }

    public var description: String { value.map { "\(name)=\($0)" } ?? name }
}

/// A requirement on the request body.
public enum BodyConstraint: Sendable, Hashable, CustomStringConvertible {
    /// The JSON body has `equals` at the RFC 6901 pointer `path`. A string there compares as
    /// text; any other value compares as JSON (`equals="5"` matches the number 5).
    case jsonPointer(path: String, equals: String)
    /// The body, as UTF-8, contains the text.
    case contains(String)

    public var description: String {
        switch self {
        case .jsonPointer(let path, let equals): "JSON \(path) == \(equals)"
        case .contains(let text): "body contains \"\(text)\""
        }
    }
}

/// Scheme, host and port a stub insists on; `nil` parts match anything.
public struct OriginConstraint: Sendable, Hashable, CustomStringConvertible {
    public var scheme: String?
    public var host: String?
    public var port: Int?

    public init(scheme: String? = nil, host: String? = nil, port: Int? = nil) {
        self.scheme = scheme?.lowercased()
        self.host = host?.lowercased()
        self.port = port
    }

    public var description: String {
        "\(scheme ?? "*")://\(host ?? "*")" + (port.map { ":\($0)" } ?? "")
    }
}
