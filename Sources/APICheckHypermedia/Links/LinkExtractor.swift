import APICheckJSON
import APICheckModel
import APICheckXML

/// Finds the hypermedia links of one response (FORMATS §5): `Link` headers, and links in the
/// body by format, detected from the media type and, failing that, from the content.
///
/// ```swift
/// let extraction = LinkExtractor().extract(
///     url: "http://localhost:3000/", headers: response.headers, body: response.body)
/// for link in extraction.links { … link.rel, link.resolve(with: variables) … }
/// for note in extraction.notes { … format-shape findings … }
/// ```
///
/// | body | format |
/// |---|---|
/// | `application/vnd.api+json`, or an object with `jsonapi` or typed resources in `data` | JSON:API |
/// | `application/vnd.siren+json`, or an object that looks like a Siren entity | Siren |
/// | `application/vnd.collection+json`, or an object with a `collection` object | Collection+JSON |
/// | any other JSON (`application/hal+json`, `application/json`, …) | HAL `_links`/`_embedded`/`_templates` and link arrays (`_links` or `links`) anywhere in the tree |
/// | XML (`application/atom+xml`, `+xml`, `text/xml`, …) | `<link>` elements in any namespace |
/// | any JSON but Collection+JSON, after the above | URL-valued fields the format did not cover (plain JSON: `…_url`, `href`, `next`, same-origin URLs) |
///
/// Without a usable `Content-Type` (or with `text/plain`, `application/octet-stream`), a body
/// that starts with `{` or `[` is read as JSON and one that starts with `<` as XML.
///
/// Untrusted input never crashes it: body size, nesting depth, `Link` field size, the number of
/// links and of notes are bounded (``Limits``); what a bound cut short is reported as a note.
public struct LinkExtractor: Sendable {
    /// Bounds on one extraction.
    public struct Limits: Sendable, Hashable {
        /// Links kept per response; the rest are counted (``LinkExtraction/droppedLinks``) and noted.
        public var maximumLinks: Int
        /// Notes kept per response; the rest are counted in a final note.
        public var maximumNotes: Int
        /// Deepest JSON or XML nesting read.
        public var maximumDepth: Int
        /// Largest body read for links.
        public var maximumBodyBytes: Int
        /// Largest `Link` header field read.
        public var maximumHeaderBytes: Int

        /// Limits; the defaults suit API responses (10,000 links, 16 MiB bodies, depth 128).
        public init(
            maximumLinks: Int = 10_000, maximumNotes: Int = 1_000, maximumDepth: Int = 128,
            maximumBodyBytes: Int = 16 << 20, maximumHeaderBytes: Int = 64 << 10
        ) {
            self.maximumLinks = maximumLinks
            self.maximumNotes = maximumNotes
            self.maximumDepth = maximumDepth
            self.maximumBodyBytes = maximumBodyBytes
            self.maximumHeaderBytes = maximumHeaderBytes
        }
    }

    /// The bounds this extractor applies.
    public var limits: Limits

    /// An extractor with `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The links of a response.
    ///
    /// - Parameters:
    ///   - url: the URL the response came from (after redirects): the context of its links and
    ///     the base relative hrefs resolve against.
    ///   - headers: the response headers (`Link` fields are read; `Content-Type` when
    ///     `contentType` is `nil`).
    ///   - contentType: the media type to read the body as, overriding the header.
    ///   - body: the body bytes.
    public func extract(url: String, headers: [HTTPHeader] = [], contentType: String? = nil, body: [UInt8]) -> LinkExtraction {
        var collector = LinkCollector(limits: limits, base: url)
        extractLinkHeaders(headers, into: &collector)
        guard !body.isEmpty else { return collector.result() }
        let mediaType = (contentType ?? headers.value(named: "Content-Type")).flatMap { try? MediaType(parsing: $0) }
        guard let kind = Self.bodyKind(mediaType, body) else { return collector.result() }
        guard body.count <= limits.maximumBodyBytes else {
            collector.note(
                .limitReached, .warning, nil, .jsonPointer(""),
                "the body (\(body.count) bytes) is larger than the \(limits.maximumBodyBytes) bytes read for links: no links were extracted from it (raise --max-body)")
            return collector.result()
        }
        var parsedAsJSON = false
        switch kind {
        case .json: parsedAsJSON = extractJSON(body, mediaType: mediaType, into: &collector)
        case .xml: extractXML(body, into: &collector)
        }
        var result = collector.result()
        result.bodyParsedAsJSON = parsedAsJSON
        return result
    }

    private enum BodyKind {
        case json
        case xml
    }

    private static func bodyKind(_ mediaType: MediaType?, _ body: [UInt8]) -> BodyKind? {
        if let mediaType {
            // A JSON Schema (a profile an API names) describes links; it has none of its own.
            if mediaType.essence.lowercased() == "application/schema+json" { return nil }
            if mediaType.isJSON { return .json }
            if mediaType.isXML { return .xml }
            guard mediaType.essence == "text/plain" || mediaType.essence == "application/octet-stream" else { return nil }
        }
        var index = body.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < body.count, body[index] == 0x20 || body[index] == 0x09 || body[index] == 0x0A || body[index] == 0x0D {
            index += 1
        }
        guard index < body.count else { return nil }
        switch body[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
        case UInt8(ascii: "<"): return .xml
        default: return nil
        }
    }

    // MARK: JSON

    private enum JSONDialect {
        case hal
        case jsonAPI
        case siren
        case collectionJSON
    }

    /// Whether the body parsed as JSON.
    @discardableResult
    private func extractJSON(_ body: [UInt8], mediaType: MediaType?, into collector: inout LinkCollector) -> Bool {
        let root: JSONNode
        do {
            root = try JSONParser(maximumDepth: limits.maximumDepth).parse(body)
        } catch {
            collector.note(
                .unreadableBody, .warning, nil, .jsonPointer("", line: error.position.line, column: error.position.column),
                "no links were extracted: the body is not valid JSON (\(error))")
            return false
        }
        let claimed: JSONDialect? =
            switch mediaType?.essence {
            case "application/hal+json", "application/prs.hal-forms+json": .hal
            case "application/vnd.api+json": .jsonAPI
            case "application/vnd.siren+json": .siren
            case "application/vnd.collection+json": .collectionJSON
            default: nil
            }
        var walker = JSONLinkWalker(collector: collector)
        switch claimed ?? Self.detectDialect(root) {
        case .jsonAPI:
            walker.walkJSONAPI(root)
        case .siren:
            walker.walkSiren(root, depth: 0, nested: false)
        case .collectionJSON:
            walker.walkCollectionJSON(root)
        case .hal:
            if claimed == .hal, !root.isObject {
                walker.shape(.hal, root, "a HAL document must be a JSON object, found \(root.typeName)")
            } else if claimed == .hal, root["_links"] == nil {
                walker.shape(.hal, root, "the document is served as HAL but has no _links: write its links (at least self) under _links")
            }
            walker.walkHAL(root, depth: 0, curies: [:], nested: false)
        }
        // URL-valued fields that no format above read as links (Collection+JSON writes all of its
        // links in its own members).
        if claimed != .collectionJSON, root["collection"]?.isObject != true {
            walker.walkPlainJSON(root, covered: JSONLinkWalker.formatAreas(of: walker.collector.links))
        }
        collector = walker.collector
        return true
    }

    private static func detectDialect(_ root: JSONNode) -> JSONDialect {
        guard root.isObject else { return .hal }
        if root["collection"]?.isObject == true { return .collectionJSON }
        if root["_links"] == nil {
            if root["jsonapi"]?.isObject == true { return .jsonAPI }
            if let data = root["data"], isJSONAPIResource(data.elements?.first ?? data) { return .jsonAPI }
        }
        if JSONLinkWalker.looksLikeSiren(root) { return .siren }
        return .hal
    }

    /// An object with a string `type` and a string `id` or `lid`.
    private static func isJSONAPIResource(_ node: JSONNode) -> Bool {
        node["type"]?.stringValue != nil && (node["id"]?.stringValue != nil || node["lid"]?.stringValue != nil)
    }

    // MARK: XML

    private func extractXML(_ body: [UInt8], into collector: inout LinkCollector) {
        let root: XMLElement
        do {
            root = try XMLDocumentParser.parse(body, documentName: "response")
        } catch {
            collector.note(
                .unreadableBody, .warning, .xml, .xmlPath("", line: error.position.line, column: error.position.column),
                "no links were extracted: the body is not well-formed XML (\(error))")
            return
        }
        var walker = XMLLinkWalker(collector: collector)
        walker.walk(root: root)
        collector = walker.collector
    }

    // MARK: Link headers

    private func extractLinkHeaders(_ headers: [HTTPHeader], into collector: inout LinkCollector) {
        var index = 0
        let base = collector.base
        for field in headers.values(named: "Link") {
            guard field.utf8.count <= limits.maximumHeaderBytes else {
                index += 1
                collector.note(
                    .limitReached, .warning, .linkHeader, .linkHeader(index),
                    "a Link header field of \(field.utf8.count) bytes is larger than the \(limits.maximumHeaderBytes) bytes read: its links were not extracted")
                continue
            }
            for item in LinkHeaderParser.parse(field) {
                index += 1
                let source = LinkSource.linkHeader(index)
                switch item {
                case .malformed(let problem):
                    collector.shape(.linkHeader, source, "the link value cannot be read: \(problem)")
                case .link(let value):
                    let rels = (value.parameter("rel") ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" })
                    guard !rels.isEmpty else {
                        collector.shape(.linkHeader, source, "the link to <\(value.target.excerpt(200))> has no rel")
                        continue
                    }
                    var context = base
                    var nested = false
                    if let anchor = value.parameter("anchor") {
                        if case .url(let resolved) = Link.target(forHref: anchor, base: base) {
                            context = resolved
                            nested = URLResolution.normalisedKey(resolved) != URLResolution.normalisedKey(base)
                        } else {
                            collector.shape(.linkHeader, source, "the anchor '\(anchor.excerpt(200))' is not a URI reference that resolves")
                            continue
                        }
                    }
                    let target = Link.target(forHref: value.target, base: base)
                    for rel in rels {
                        collector.add(Link(
                            context: context, base: base, rel: rel.lowercased(), href: value.target, target: target,
                            type: value.parameter("type"), title: value.parameter("title"), hreflang: value.parameter("hreflang"),
                            format: .linkHeader, source: source, isNested: nested))
                    }
                }
            }
        }
    }
}
