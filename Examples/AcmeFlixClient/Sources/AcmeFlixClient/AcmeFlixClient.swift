import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

public enum AcmeFlixError: Error, Equatable {
    /// The resource does not offer this capability now (e.g. `rent` when out of stock).
    case capabilityUnavailable(String)
    /// The API answered with a status outside 2xx.
    case status(Int, URL)
    /// A link's parameters need a value the caller did not give.
    case missingParameter(String)
}

/// A client that knows only the root URL and follows advertised links, as in the AcmeFlix case
/// study. It takes its `URLSession` from outside, which is what lets tests answer it from stubs.
public struct AcmeFlixClient: Sendable {
    public let rootURL: URL
    public let session: URLSession

    public init(rootURL: URL, session: URLSession = .shared) {
        self.rootURL = rootURL
        self.session = session
    }

    public func root() async throws -> Resource<Root> {
        try await get(rootURL)
    }

    /// Follows a GET link (`library`, `self`, `cart`…).
    public func follow<Item>(_ rel: String, from resource: Resource<some Decodable & Sendable>, as: Item.Type = Item.self) async throws -> Resource<Item> {
        guard let link = resource.link(rel) else { throw AcmeFlixError.capabilityUnavailable(rel) }
        return try await get(link.href)
    }

    /// The poster image of a movie (its `poster` link).
    public func poster(of movie: Resource<some Decodable & Sendable>) async throws -> Data {
        guard let link = movie.link("poster") else { throw AcmeFlixError.capabilityUnavailable("poster") }
        return try await send(URLRequest(url: link.href))
    }

    /// Rents a movie through its `rent` capability; the cart comes back.
    public func rent(_ movie: Resource<Movie>) async throws -> Resource<Cart> {
        try await invoke("rent", of: movie, values: [:])
    }

    /// Rates a movie through its `rate` capability (`parameters: {"rating": "{rating}"}`).
    public func rate(_ movie: Resource<Movie>, rating: Double) async throws -> Resource<Movie> {
        try await invoke("rate", of: movie, values: ["rating": rating])
    }

    /// Invokes the capability `rel` with its method, sending its parameters as a JSON body;
    /// `{name}` placeholders take their value from `values`.
    public func invoke<Item>(_ rel: String, of resource: Resource<some Decodable & Sendable>, values: [String: any Sendable]) async throws -> Resource<Item> {
        guard let link = resource.link(rel) else { throw AcmeFlixError.capabilityUnavailable(rel) }
        var body: [String: Any] = [:]
        for (name, value) in link.parameters {
            if value.hasPrefix("{"), value.hasSuffix("}") {
                let placeholder = String(value.dropFirst().dropLast())
                guard let filled = values[placeholder] else { throw AcmeFlixError.missingParameter(placeholder) }
                body[name] = filled
            } else {
                body[name] = value
            }
        }
        var request = URLRequest(url: link.href)
        request.httpMethod = link.method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        return try JSONDecoder().decode(Resource<Item>.self, from: try await send(request))
    }

    private func get<Item>(_ url: URL) async throws -> Resource<Item> {
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return try JSONDecoder().decode(Resource<Item>.self, from: try await send(request))
    }

    private func send(_ request: URLRequest) async throws -> Data {
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw AcmeFlixError.status(status, request.url ?? rootURL) }
        return data
    }
}
