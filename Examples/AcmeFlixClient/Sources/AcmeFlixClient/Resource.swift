import Foundation

/// A capability the API advertises: where to go, with which method and parameters.
public struct Link: Decodable, Sendable, Equatable {
    public var rel: String
    public var href: URL
    public var type: String?
    public var method: String
    /// Body parameters; a value written `{name}` is a placeholder the client fills in.
    public var parameters: [String: String]

    enum CodingKeys: String, CodingKey { case rel, href, type, method, parameters }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rel = try container.decode(String.self, forKey: .rel)
        href = try container.decode(URL.self, forKey: .href)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        method = try container.decodeIfPresent(String.self, forKey: .method) ?? "GET"
        parameters = try container.decodeIfPresent([String: String].self, forKey: .parameters) ?? [:]
    }
}

/// A representation and the links it carries under `_links`: the client knows only the grammar
/// (rels), never URLs.
public struct Resource<Item: Decodable & Sendable>: Decodable, Sendable {
    public var item: Item
    public var links: [Link]

    enum CodingKeys: String, CodingKey { case links = "_links" }

    public init(from decoder: any Decoder) throws {
        links = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([Link].self, forKey: .links) ?? []
        item = try Item(from: decoder)
    }

    /// Whether the API currently offers `rel` (e.g. `rent` only while a movie is in stock).
    public func hasCapability(_ rel: String) -> Bool { links.contains { $0.rel == rel } }

    /// The first link with `rel`.
    public func link(_ rel: String) -> Link? { links.first { $0.rel == rel } }
}

public struct Root: Decodable, Sendable {}

public struct MovieSummary: Decodable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var year: Int
    public var director: String
}

public struct Movie: Decodable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var year: Int
    public var director: String
    public var rating: Double
    public var ratingEnabled: Bool
    public var synopsis: String
    public var stock: Int
}

public struct Library: Decodable, Sendable {
    public var count: Int
    public var movies: [Resource<MovieSummary>]
}

public struct Cart: Decodable, Sendable {
    public var count: Int
    public var items: [Resource<MovieSummary>]
}
