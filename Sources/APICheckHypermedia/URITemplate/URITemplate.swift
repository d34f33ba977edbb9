/// An RFC 6570 URI Template (levels 1–4): parsed and validated once, expanded many times.
///
/// ```swift
/// let template = try URITemplate("/movies{/id}{?page,size}")
/// template.variableNames                      // ["id", "page", "size"]
/// template.missingVariables(for: [:])         // ["id"]: only query variables may stay empty
/// try template.expand(["id": "42", "page": "2"])   // "/movies/42?page=2"
/// ```
///
/// Parsing is strict (it backs the `template-valid` rule) and errors carry the offset of the
/// problem. Templates and expansions are bounded in length, so hostile input costs little.
public struct URITemplate: Sendable, Hashable, CustomStringConvertible {
    /// Longest template accepted by default, in UTF-8 bytes.
    public static let defaultMaximumLength = 16_384
    /// Longest expansion produced by default, in bytes.
    public static let defaultMaximumExpansionLength = 65_536

    /// The template as written.
    public let source: String
    /// Literal text and expressions, in order.
    public let components: [Component]

    /// Parses `source`, refusing anything that is not valid RFC 6570 syntax.
    public init(_ source: String, maximumLength: Int = URITemplate.defaultMaximumLength) throws(URITemplateError) {
        let length = source.utf8.count
        guard length <= maximumLength else { throw .tooLong(length, limit: maximumLength) }
        var parser = URITemplateParser(scalars: Array(source.unicodeScalars))
        self.source = source
        self.components = try parser.parse()
    }

    /// The template as written.
    public var description: String { source }

    /// The expressions, in order.
    public var expressions: [Expression] {
        components.compactMap {
            if case .expression(let expression) = $0 { return expression }
            return nil
        }
    }

    /// Every variable reference, in order (a name used twice appears twice).
    public var variables: [Variable] { expressions.flatMap(\.variables) }

    /// The distinct variable names, in order of first use.
    public var variableNames: [String] {
        var seen: Set<String> = []
        return variables.compactMap { seen.insert($0.name).inserted ? $0.name : nil }
    }

    /// Whether the template has any expression at all (`/movies` parses, but is not templated).
    public var isTemplated: Bool { !expressions.isEmpty }

    /// Whether every variable sits in a form-style query expression (`{?x}`, `{&x}`), so that
    /// expanding with no values at all still gives a meaningful URI (the query is just left out).
    public var hasOnlyQueryVariables: Bool { variables.allSatisfy(\.isQueryForm) }

    /// The variables that `values` leaves undefined although the URI needs them: those used
    /// outside form-style query expressions, in order of first use. Empty lists and empty
    /// associative arrays count as undefined (RFC 6570 §2.3).
    public func missingVariables(for values: [String: Value]) -> [String] {
        var seen: Set<String> = []
        var missing: [String] = []
        for variable in variables where !variable.isQueryForm {
            guard values[variable.name]?.isDefined != true, seen.insert(variable.name).inserted else { continue }
            missing.append(variable.name)
        }
        return missing
    }

    /// Whether `text` should be treated as a template rather than a plain URI reference: it
    /// contains `{`, which never appears unencoded in a URI.
    public static func looksTemplated(_ text: String) -> Bool {
        text.utf8.contains(UInt8(ascii: "{"))
    }
}

extension URITemplate {
    /// An expression operator (RFC 6570 §2.2) and the expansion behaviour it selects (§3.2.1,
    /// Appendix A).
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        /// `{var}`: simple string expansion.
        case simple = ""
        /// `{+var}`: reserved expansion.
        case reserved = "+"
        /// `{#var}`: fragment expansion.
        case fragment = "#"
        /// `{.var}`: label expansion with dot prefix.
        case label = "."
        /// `{/var}`: path segment expansion.
        case pathSegment = "/"
        /// `{;var}`: path-style parameter expansion.
        case pathParameter = ";"
        /// `{?var}`: form-style query expansion.
        case query = "?"
        /// `{&var}`: form-style query continuation.
        case queryContinuation = "&"

        var first: String {
            switch self {
            case .simple, .reserved: ""
            default: rawValue
            }
        }

        var separator: UInt8 {
            switch self {
            case .simple, .reserved, .fragment: UInt8(ascii: ",")
            case .label: UInt8(ascii: ".")
            case .pathSegment: UInt8(ascii: "/")
            case .pathParameter: UInt8(ascii: ";")
            case .query, .queryContinuation: UInt8(ascii: "&")
            }
        }

        var isNamed: Bool { self == .pathParameter || self == .query || self == .queryContinuation }

        /// What a named variable with an empty value expands to after its name.
        var ifEmpty: String { self == .query || self == .queryContinuation ? "=" : "" }

        var allowsReserved: Bool { self == .reserved || self == .fragment }
    }

    /// One variable reference (`varspec`): a name with an optional prefix or explode modifier.
    public struct Variable: Sendable, Hashable {
        /// The name as written (percent-encoded triplets kept).
        public var name: String
        /// `*`: lists and associative arrays expand member by member.
        public var explode: Bool
        /// `:n`: only the first `n` characters (1…9999) of a string value.
        public var prefix: Int?
        /// The operator of the expression the variable sits in.
        public var `operator`: Operator
        /// Where the name starts in the template (0-based, in Unicode scalars).
        public var offset: Int

        /// Whether the variable sits in a form-style query expression (`{?x}` or `{&x}`).
        public var isQueryForm: Bool { `operator` == .query || `operator` == .queryContinuation }
    }

    /// One `{…}` expression.
    public struct Expression: Sendable, Hashable {
        /// The operator after `{`.
        public var `operator`: Operator
        /// The variables, in order.
        public var variables: [Variable]
        /// Where the `{` is (0-based, in Unicode scalars).
        public var offset: Int
    }

    /// A piece of a template: literal text, or an expression.
    public enum Component: Sendable, Hashable {
        case literal(String)
        case expression(Expression)
    }
}
