import APICheckJSON
/// Where in a response a link (or a note) was found, for the report: an RFC 6901 JSON pointer,
/// an XPath-like element path, or the position of a `Link` header value.
///
/// Paths are exact for any sensible document; in hostile ones, names over 128 characters and
/// paths over 1,024 bytes are cut and marked with `…`.
public struct LinkSource: Sendable, Hashable, CustomStringConvertible {
    /// The kind of place ``path`` names.
    public enum Kind: String, Sendable, Hashable {
        /// ``path`` is an RFC 6901 JSON pointer into the body (`""` is the whole document).
        case jsonPointer = "json-pointer"
        /// ``path`` names an XML element (`/feed/entry[2]/link[1]`, indexes 1-based among
        /// same-named siblings).
        case xmlPath = "xml-path"
        /// ``path`` names a `Link` header value (`Link header #2`, 1-based across all `Link` fields).
        case linkHeader = "link-header"
        /// ``path`` names a place in the API's description, not in the response (an OpenAPI
        /// Link Object: `openapi.yaml#/paths/~1users~1{id}/get/responses/200/links/repos`).
        case document = "document"
    }

    /// What kind of place ``path`` names.
    public var kind: Kind
    /// The pointer, element path or `Link header #n`.
    public var path: String
    /// Line of the body where the item starts, when known (1-based).
    public var line: Int?
    /// Column of the body where the item starts, when known (1-based, in bytes).
    public var column: Int?

    /// A source; prefer the static factories.
    public init(kind: Kind, path: String, line: Int? = nil, column: Int? = nil) {
        self.kind = kind
        self.path = path
        self.line = line
        self.column = column
    }

    /// A JSON pointer; build one from raw tokens with ``JSONPointer``.
    public static func jsonPointer(_ pointer: String, line: Int? = nil, column: Int? = nil) -> LinkSource {
        LinkSource(kind: .jsonPointer, path: pointer, line: line, column: column)
    }

    /// An element path such as `/feed/entry[2]/link[1]`.
    public static func xmlPath(_ path: String, line: Int? = nil, column: Int? = nil) -> LinkSource {
        LinkSource(kind: .xmlPath, path: path, line: line, column: column)
    }

    /// The `index`-th (1-based) link value across a response's `Link` header fields.
    public static func linkHeader(_ index: Int) -> LinkSource {
        LinkSource(kind: .linkHeader, path: "Link header #\(index)")
    }

    /// A place in the API's description (an OpenAPI document), not in the response.
    public static func document(_ location: String) -> LinkSource {
        LinkSource(kind: .document, path: location)
    }

    /// The path; the empty JSON pointer (the whole document) reads `(document root)`.
    public var description: String {
        kind == .jsonPointer && path.isEmpty ? "(document root)" : path
    }
}

extension JSONPointer {
    /// Like ``pointer(_:)``, but tokens longer than `tokenLimit` characters and pointers longer
    /// than `totalLimit` bytes are cut and marked with `…`: what extraction records, so that a
    /// hostile document cannot make every link carry a megabyte-long path.
    package static func boundedPointer(_ tokens: [String], tokenLimit: Int = 128, totalLimit: Int = 1024) -> String {
        var result = ""
        for token in tokens {
            // Cut before escaping: escaping a megabyte key per link would be the cost to avoid.
            result += "/" + escape(token.excerpt(tokenLimit)).excerpt(tokenLimit)
            if result.utf8.count > totalLimit { return result.excerpt(totalLimit) }
        }
        return result
    }
}
