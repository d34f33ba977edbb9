import APICheckModel

/// A media type (RFC 9110 §8.3.1, RFC 6838): `type/subtype` with ordered parameters.
///
/// Type, subtype and parameter names are case-insensitive and kept lower-cased; parameter values
/// are kept as written (unquoted). Equality is structural; for the `type-matches` rule use
/// ``matches(_:)``.
///
/// ```swift
/// let served = try MediaType(parsing: "application/HAL+json; charset=\"utf-8\"")
/// served.essence      // "application/hal+json"
/// served.suffix       // "json"
/// served.parameter("CHARSET")   // "utf-8"
/// ```
public struct MediaType: Sendable, Hashable, CustomStringConvertible {
    /// One `name=value` parameter.
    public struct Parameter: Sendable, Hashable {
        /// Lower-cased.
        public var name: String
        /// As written, without quotes or quoted-pair backslashes.
        public var value: String

        /// A parameter; `name` is lower-cased.
        public init(name: String, value: String) {
            self.name = name.lowercased()
            self.value = value
        }
    }

    /// Longest text parsed, in UTF-8 bytes; longer is refused as hostile.
    public static let maximumLength = 1024

    /// Lower-cased top-level type (`application`).
    public let type: String
    /// Lower-cased subtype (`vnd.acmeflix.api.movie+json`).
    public let subtype: String
    /// In order, names lower-cased.
    public let parameters: [Parameter]

    /// A media type from its parts; `type` and `subtype` are lower-cased, not validated.
    public init(type: String, subtype: String, parameters: [Parameter] = []) {
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        self.parameters = parameters
    }

    /// `type/subtype`, lower-cased, without parameters.
    public var essence: String { type + "/" + subtype }

    /// The structured syntax suffix (RFC 6838 §4.2.8) after the last `+`: `json` for
    /// `application/vnd.api+json`, `nil` for `application/json`.
    public var suffix: String? {
        guard let plus = subtype.lastIndex(of: "+") else { return nil }
        let suffix = subtype[subtype.index(after: plus)...]
        return suffix.isEmpty ? nil : String(suffix)
    }

    /// The value of the parameter `name` (case-insensitive), the first if repeated.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// The `profile` parameter (RFC 6906), which the `type-matches` rule compares.
    public var profile: String? { parameter("profile") }

    /// Whether bodies of this type are JSON documents: `application/json`, any `+json`, and the
    /// unregistered aliases `text/json`, `application/x-json`.
    public var isJSON: Bool {
        suffix == "json" || canonicalEssence == "application/json"
    }

    /// Whether bodies of this type are XML documents: `application/xml`, `text/xml`, any `+xml`.
    public var isXML: Bool {
        let canonical = canonicalEssence
        return suffix == "xml" || canonical == "application/xml" || canonical == "text/xml" || canonical.hasSuffix("+xml")
    }

    /// The essence, or the registered type that an unregistered alias stands for
    /// (`image/jpeg` for `image/jpg`).
    public var canonicalEssence: String {
        MediaTypeRegistry.alias(essence)?.replacement ?? essence
    }

    /// `type/subtype; name=value`, lower-cased names, values quoted when they need it.
    public var description: String {
        var result = essence
        for parameter in parameters {
            result += "; " + parameter.name + "="
            if !parameter.value.isEmpty, parameter.value.utf8.allSatisfy(MediaTypeParser.isTokenByte) {
                result += parameter.value
            } else {
                result += "\""
                // By Unicode scalar: a quote or backslash followed by a combining mark is one
                // `Character`, and would not be escaped.
                for scalar in parameter.value.unicodeScalars {
                    if scalar == "\"" || scalar == "\\" { result += "\\" }
                    result.unicodeScalars.append(scalar)
                }
                result += "\""
            }
        }
        return result
    }

    /// Parses a media type as a `Content-Type` header or a link's `type` carries it.
    ///
    /// Accepts optional whitespace around `;` and empty parameters (`a/b;;c=d;`), as RFC 9110
    /// does; refuses everything else with a located ``MediaTypeProblem``.
    public init(parsing text: String) throws(MediaTypeProblem) {
        self = try MediaTypeParser.parse(text)
    }

    /// Whether a served type satisfies this declared type (the `type-matches` rule): type and
    /// subtype equal (case-insensitive, `*` in the declared type matches anything), parameters
    /// ignored except `profile`, which, when declared, must be served too (the same URIs, in
    /// any order).
    ///
    /// Aliases do not match: a link declaring `image/jpeg` is not satisfied by `image/jpg`.
    public func matches(_ served: MediaType) -> Bool {
        mismatch(with: served) == nil
    }

    /// Why `served` does not satisfy this declared type, or `nil` when it does.
    public func mismatch(with served: MediaType) -> String? {
        if type != "*" && type != served.type {
            return "the type is \(served.essence), not \(essence)"
        }
        if subtype != "*" && subtype != served.subtype {
            return "the subtype is \(served.subtype), not \(subtype)"
        }
        if let declared = profile {
            guard let servedProfile = served.profile else {
                return "the profile \"\(declared)\" is declared but not served"
            }
            let split = { (text: String) in Set(text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)) }
            if split(declared) != split(servedProfile) {
                return "the profile is \"\(servedProfile)\", not \"\(declared)\""
            }
        }
        return nil
    }
}
