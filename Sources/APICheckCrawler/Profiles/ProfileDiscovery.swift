import APICheckHypermedia
import APICheckJSON
import APICheckSchema
import Foundation

/// Profiles an API names itself, fetched once each: the `profile` parameter of a Content-Type
/// (RFC 6906), a `Link: <…>; rel="describedby"` header, or a `describedby`/`profile` link in the
/// body. Only documents that are JSON Schemas count (served as `application/schema+json`, or a
/// JSON object with `$schema`): a `profile` link to an ALPS document is not a contract for the body.
///
/// Bounded: at most ``maximumSchemas`` documents (with their `$ref`s), each no larger than the
/// crawl's `--max-body`, only inside the crawl's scope (`--allow-host` widens it). Concurrent
/// answers naming one URL share one fetch.
actor ProfileDiscovery {
    /// What became of a named schema.
    enum Outcome: Sendable {
        case profile(MediaTypeProfile)
        /// The document is not a JSON Schema (or out of scope): nothing to check against.
        case ignored(String)
        /// A schema that cannot be used: a finding, once per place.
        case unusable(String)
    }

    typealias Fetch = @Sendable (URL) async -> (status: Int, contentType: String?, body: [UInt8], truncated: Bool)?

    let maximumSchemas: Int
    let options: JSONSchemaOptions
    private var known: [String: Task<Outcome, Never>] = [:]
    private var documentsFetched = 0

    init(maximumSchemas: Int, options: JSONSchemaOptions) {
        self.maximumSchemas = maximumSchemas
        self.options = options
    }

    /// The profile at `url`, fetched with `fetch` the first time anyone asks.
    func profile(at url: String, fetch: @escaping Fetch) async -> Outcome {
        if let task = known[url] { return await task.value }
        let task = Task { await self.load(url, fetch: fetch) }
        known[url] = task
        return await task.value
    }

    private func reserveDocument() -> Bool {
        guard documentsFetched < maximumSchemas else { return false }
        documentsFetched += 1
        return true
    }

    private func load(_ url: String, fetch: @escaping Fetch) async -> Outcome {
        let value: JSONValue
        switch await document(url, fetch: fetch) {
        case .absent(let reason): return .ignored(reason)
        case .broken(let reason): return .unusable(reason)
        case .document(let document, let servedAsSchema):
            guard servedAsSchema || document["$schema"] != nil else { return .ignored("\(url) is not a JSON Schema") }
            value = document
        }
        var registry = JSONSchemaRegistry()
        var fetched: Set<String> = [url]
        // A `$ref` to another document is fetched too (bounded by the same count), then compiled
        // again; a document fetched already that still lacks the target is an error, not a refetch.
        for _ in 0...maximumSchemas {
            do {
                let schema = try JSONSchema(value, baseURI: url, registry: registry, options: options)
                return .profile(MediaTypeProfile(key: url, schemaName: url, schema: schema))
            } catch {
                guard let missing = error.unresolvedReference else { return .unusable("the schema \(url) is invalid: \(error.message)") }
                let documentURL = String(missing.prefix { $0 != "#" })
                guard fetched.insert(documentURL).inserted else {
                    return .unusable("the schema \(url) refers to \(missing), which \(documentURL) does not define")
                }
                guard case .document(let referenced, _) = await document(documentURL, fetch: fetch) else {
                    return .unusable("the schema \(url) refers to \(missing), which could not be fetched")
                }
                do {
                    try registry.add(referenced, uri: documentURL)
                } catch {
                    return .unusable("the schema \(documentURL) is invalid: \(error.message)")
                }
            }
        }
        return .unusable("the schema \(url) refers to more than \(maximumSchemas) documents")
    }

    /// A named document as fetched.
    private enum Document {
        case document(JSONValue, servedAsSchema: Bool)
        /// Nothing to check against (not fetched, not JSON).
        case absent(String)
        /// The API named a schema that cannot be used.
        case broken(String)
    }

    private func document(_ url: String, fetch: @escaping Fetch) async -> Document {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "") else {
            return .absent("\(url) is not an http(s) URL")
        }
        guard reserveDocument() else { return .broken("more than \(maximumSchemas) schemas were named; \(url) was not fetched (the crawl fetches at most \(maximumSchemas))") }
        guard let answer = await fetch(parsed) else { return .absent("\(url) was not fetched (out of the crawl's scope, or no answer)") }
        let servedAsSchema = answer.contentType.map { MediaTypeProfiles.typeKey($0) == "application/schema+json" } ?? false
        guard (200..<300).contains(answer.status) else {
            return servedAsSchema ? .broken("the schema \(url) answered \(answer.status)") : .absent("\(url) answered \(answer.status)")
        }
        guard !answer.truncated else { return .broken("the schema \(url) is larger than --max-body") }
        do {
            return .document(try JSONParser().parseValue(answer.body), servedAsSchema: servedAsSchema)
        } catch {
            return servedAsSchema ? .broken("the schema \(url) is not valid JSON: \(error)") : .absent("\(url) is not JSON")
        }
    }
}

extension ProfileDiscovery {
    /// The schema URL an answer names, in order: the served type's `profile` parameter, a
    /// `describedby` link (header or body), a `profile` link of the body; else the profile the
    /// link that led here gave it (HAL's `profile` attribute, `declaredProfile`).
    static func namedSchema(contentType: String?, links: [Link], declaredProfile: String? = nil) -> String? {
        // Every answer comes here: the type is parsed again only when it can hold a profile.
        if let contentType, contentType.range(of: "profile", options: .caseInsensitive) != nil,
            let uri = MediaTypeProfiles.profileParameter(contentType), uri.hasPrefix("http")
        {
            return uri
        }
        for rel in ["describedby", "profile"] {
            // Relation names compare case-insensitively (RFC 8288 §2.1.1).
            if let link = links.first(where: { !$0.isNested && $0.rel.lowercased() == rel }), case .url(let target) = link.resolve() {
                return target
            }
        }
        return declaredProfile.flatMap { $0.hasPrefix("http") ? $0 : nil }
    }
}
