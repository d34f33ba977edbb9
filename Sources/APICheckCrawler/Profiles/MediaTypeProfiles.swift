import APICheckHypermedia
import APICheckSchema

/// A media type's profile: the JSON Schema every body of that type must validate against (the
/// `body-schema` rule), and the name reports give it.
public struct MediaTypeProfile: Sendable {
    /// The media type (`application/vnd.acmeflix.api.movie+json`) or profile URI it is keyed by, as given.
    public var key: String
    /// How findings name the schema: a path as configured (`schemas/movie.json`) or the URL it was
    /// discovered at. Never an absolute file path, so defect titles are the same on every machine.
    public var schemaName: String
    public var schema: JSONSchema

    public init(key: String, schemaName: String, schema: JSONSchema) {
        self.key = key
        self.schemaName = schemaName
        self.schema = schema
    }
}

/// The profiles of a crawl, a lint or a server: media types (and RFC 6906 profile URIs) to schemas.
///
/// A type is looked up by its essence, case-insensitively, with the repair `type-syntax` suggests
/// (`vnd.acmeflix.api.movie+json` finds `application/vnd.acmeflix.api.movie+json`); parameters do
/// not matter, except `profile`, whose URI is looked up first.
///
/// ```swift
/// var profiles = MediaTypeProfiles()
/// try profiles.add(MediaTypeProfile(key: "application/vnd.acme.movie+json", schemaName: "schemas/movie.json", schema: movie))
/// profiles.profile(served: "application/json", declared: "vnd.acme.movie+json")   // the movie profile
/// ```
public struct MediaTypeProfiles: Sendable {
    private var byType: [String: MediaTypeProfile] = [:]
    private var byURI: [String: MediaTypeProfile] = [:]

    public init() {}

    public var isEmpty: Bool { byType.isEmpty && byURI.isEmpty }
    public var count: Int { byType.count + byURI.count }

    /// Every profile, types first, each in key order (for listings).
    public var all: [MediaTypeProfile] {
        byType.values.sorted { $0.key < $1.key } + byURI.values.sorted { $0.key < $1.key }
    }

    /// Adds `profile`; a later one for the same type replaces an earlier one (a `--profile` beats
    /// the stub set's file). A key that is neither a media type nor an absolute URI is refused.
    public mutating func add(_ profile: MediaTypeProfile) throws(MediaTypeProfileError) {
        if let type = Self.typeKey(profile.key) {
            byType[type] = profile
        } else if profile.key.contains(":") {
            byURI[profile.key] = profile
        } else {
            throw MediaTypeProfileError(
                "'\(profile.key)' is neither a media type (type/subtype) nor a profile URI; write e.g. application/vnd.example.movie+json=schemas/movie.json")
        }
    }

    /// Adds every profile of `other`, replacing those of the same types.
    public mutating func merge(_ other: MediaTypeProfiles) {
        byType.merge(other.byType) { _, new in new }
        byURI.merge(other.byURI) { _, new in new }
    }

    /// The profile of a body served as `served`, reached by a link that declared `declared`: the
    /// served type's `profile` parameter, then its type, then, when the served type is generic or
    /// missing, the declared type's.
    public func profile(served: String?, declared: String?) -> MediaTypeProfile? {
        guard !isEmpty else { return nil }
        if let served {
            if let uri = Self.profileParameter(served), let profile = byURI[uri] { return profile }
            if let type = Self.typeKey(served), let profile = byType[type] { return profile }
            // A body served as another specific type is that type (type-matches reports the
            // difference); only a generic one (application/json, +json of a format) is read as declared.
            guard !Self.isVendorSpecific(served) else { return nil }
        }
        if let declared, let type = Self.typeKey(declared), let profile = byType[type] { return profile }
        return nil
    }

    /// `vnd.`, `prs.` and `x.` subtypes name one API's representation; `application/json` or
    /// `application/hal+json` name only a format.
    static func isVendorSpecific(_ text: String) -> Bool {
        guard let type = typeKey(text), let slash = type.firstIndex(of: "/") else { return false }
        let subtype = type[type.index(after: slash)...]
        return subtype.hasPrefix("vnd.") || subtype.hasPrefix("prs.") || subtype.hasPrefix("x.")
    }

    /// The profile registered for a profile URI, if any.
    public func profile(uri: String) -> MediaTypeProfile? { byURI[uri] }

    /// `type/subtype`, lower-cased, of a type as written or as repaired (`vnd.x+json`).
    static func typeKey(_ text: String) -> String? {
        if let type = try? MediaType(parsing: text) { return type.essence.lowercased() }
        return MediaType.problems(in: text).lazy.compactMap(\.suggestion).compactMap { try? MediaType(parsing: $0) }.first?.essence.lowercased()
    }

    /// The `profile` parameter's URI; a space-separated list names its first.
    static func profileParameter(_ text: String) -> String? {
        guard let type = try? MediaType(parsing: text), let profile = type.profile else { return nil }
        return profile.split(separator: " ").first.map(String.init)
    }
}

/// Why a profile could not be added.
public struct MediaTypeProfileError: Error, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) { self.description = description }
}
