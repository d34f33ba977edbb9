import APICheckCrawler
import APICheckJSON
import APICheckModel
import Foundation

/// Where a document comes from: a file, or a URL an API serves it at (FastAPI's `/openapi.json`),
/// with the remote `$ref`s it needs fetched first, under the reader's limits.
///
/// Which remote references are fetched: those on the document's own origin when it was fetched
/// by URL (its relative `$ref`s), and any http(s) reference when ``allowsRemoteReferences``; the
/// others stay refused, with a located error, since a check must not depend on hosts its user
/// did not name. All of them count against ``OpenAPIReadLimits/maximumExternalFiles``.
///
/// ```swift
/// let loader = OpenAPIDocumentLoader(fetcher: liveFetcher)
/// let document = try await loader.load("http://127.0.0.1:8000/openapi.json")
/// ```
public struct OpenAPIDocumentLoader: Sendable {
    public var reader: OpenAPIDocumentReader
    /// Fetches documents named by URL; `nil`: only files can be read.
    public var fetcher: (any CrawlFetcher)?
    /// Fetch `$ref`s to any http(s) host, not only the document's own origin.
    public var allowsRemoteReferences: Bool
    /// Sent with every fetch (credentials for a document behind authentication).
    public var headers: [HTTPHeader]
    /// Each fetch, from sending to the end of the body.
    public var timeout: Duration

    public init(
        reader: OpenAPIDocumentReader = OpenAPIDocumentReader(), fetcher: (any CrawlFetcher)? = nil, allowsRemoteReferences: Bool = false,
        headers: [HTTPHeader] = [], timeout: Duration = .seconds(30)
    ) {
        self.reader = reader
        self.fetcher = fetcher
        self.allowsRemoteReferences = allowsRemoteReferences
        self.headers = headers
        self.timeout = timeout
    }

    /// Whether `source` names a document by URL rather than by path.
    public static func isURL(_ source: String) -> Bool {
        let lowered = source.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// Reads the document `source` names (a path, or an http(s) URL).
    public func load(_ source: String) async throws(OpenAPIError) -> OpenAPIDocument {
        let bytes: [UInt8]
        let location: URL
        if Self.isURL(source) {
            guard let url = URL(string: source), url.host != nil else {
                throw .reference("'\(source)' is not a URL that can be fetched", file: source, line: 0, column: 0)
            }
            location = url
            bytes = try await fetch(url, shownAs: source, file: source)
        } else {
            location = URL(fileURLWithPath: source).standardizedFileURL
            bytes = try reader.readFile(location, shownAs: source)
        }
        var reader = reader
        if Self.isURL(source) || allowsRemoteReferences {
            reader.remoteDocuments = try await remoteDocuments(of: bytes, at: location, file: source)
        }
        return try reader.read(bytes, file: source, location: location)
    }

    /// The remote documents `bytes` reaches through `$ref`s that may be fetched, transitively,
    /// by absolute URI without fragment.
    private func remoteDocuments(of bytes: [UInt8], at location: URL, file: String) async throws(OpenAPIError) -> [String: [UInt8]] {
        var fetched: [String: [UInt8]] = [:]
        var pending = try references(in: reader.parse(bytes, file: file), base: location)
        var seen = Set(pending.map(\.absoluteString))
        seen.insert(Self.withoutFragment(location).absoluteString)
        while !pending.isEmpty {
            let url = pending.removeFirst()
            guard mayFetch(url, document: location) else { continue }
            guard fetched.count < reader.limits.maximumExternalFiles else {
                throw .limit("more than \(reader.limits.maximumExternalFiles) documents are referenced through $ref", file: file)
            }
            let shown = url.absoluteString
            let document = try await fetch(url, shownAs: shown, file: file)
            fetched[shown] = document
            for next in try references(in: reader.parse(document, file: shown), base: url) where seen.insert(next.absoluteString).inserted {
                pending.append(next)
            }
        }
        return fetched
    }

    private func mayFetch(_ url: URL, document: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return allowsRemoteReferences || OriginRewriter.origin(of: url) == OriginRewriter.origin(of: document)
    }

    /// Every `$ref` of `node` resolved against `base`, fragment dropped; only http(s) ones.
    private func references(in node: JSONNode, base: URL) -> [URL] {
        var found: [URL] = []
        var seen: Set<String> = []
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let members):
                for member in members {
                    if member.key == "$ref", case .string(let reference) = member.value,
                        let url = URL(string: reference, relativeTo: base)?.absoluteURL,
                        let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
                    {
                        let bare = Self.withoutFragment(url)
                        if seen.insert(bare.absoluteString).inserted { found.append(bare) }
                    } else {
                        walk(member.value)
                    }
                }
            case .array(let elements):
                for element in elements { walk(element) }
            default:
                break
            }
        }
        // The parse above bounded the depth, so this walk cannot exhaust the stack.
        walk(node.value)
        return found
    }

    private static func withoutFragment(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        components.fragment = nil
        return components.url ?? url
    }

    private func fetch(_ url: URL, shownAs shown: String, file: String) async throws(OpenAPIError) -> [UInt8] {
        guard let fetcher else {
            throw .reference("\(shown) can only be fetched by the command line tool; download it and name the file", file: file, line: 0, column: 0)
        }
        let response: FetchedResponse
        do {
            response = try await fetcher.fetch(
                FetchRequest(url: url, headers: headers + [HTTPHeader(name: "Accept", value: "application/json, application/yaml;q=0.9, */*;q=0.5")]),
                maximumBodyBytes: reader.limits.maximumBytes + 1, timeout: timeout)
        } catch {
            throw .reference("GET \(shown) failed: \(error)", file: file, line: 0, column: 0)
        }
        guard (200..<300).contains(response.status) else {
            throw .reference("GET \(shown) answered \(response.status), not the document", file: file, line: 0, column: 0)
        }
        if response.headers.value(named: "Content-Type").map(ContentTypeHeader.essence(of:)) == "text/html" {
            throw .reference(
                "GET \(shown) served an HTML page, not an OpenAPI document (a documentation page? FastAPI serves its document at /openapi.json)",
                file: file, line: 0, column: 0)
        }
        guard !response.isTruncated, response.body.count <= reader.limits.maximumBytes else {
            throw .limit("\(shown) is more than the \(reader.limits.maximumBytes) bytes allowed", file: file)
        }
        return [UInt8](response.body)
    }
}
