import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client as apps write them: it takes its session from outside and wraps errors.
public struct GistsClient: Sendable {
    public struct Gist: Decodable, Equatable, Sendable {
        public var id: String
        public var description: String
    }

    public enum Failure: Error {
        case network
    }

    let session: URLSession
    let root = URL(string: "https://api.github.com")!

    public init(session: URLSession) {
        self.session = session
    }

    public func list() async throws -> [Gist] {
        do {
            let (data, _) = try await session.data(from: root.appendingPathComponent("gists"))
            return try JSONDecoder().decode([Gist].self, from: data)
        } catch is URLError {
            throw Failure.network  // the URLError, and what it said, is gone here
        }
    }

    /// Starred gists, or nil when they cannot be fetched: the error is swallowed.
    public func starred() async -> [Gist]? {
        guard let (data, _) = try? await session.data(from: root.appendingPathComponent("gists/starred")) else { return nil }
        return try? JSONDecoder().decode([Gist].self, from: data)
    }
}
