import APICheckCrawler
import APICheckHypermedia
import APICheckModel

/// `links` and `link-header`: the link extractors of the crawler.
///
/// `links` is one target for every body format: the first byte picks the media type the body is
/// served as (low 4 bits: HAL, HAL-FORMS, JSON:API, Siren, Collection+JSON, plain JSON, Atom,
/// XML, `text/plain`, none so the body is sniffed, …) and bit 4 picks small limits (so the link,
/// note and depth bounds are reached); the rest is the body.
///
/// Invariants (both targets): the bounds hold (links, notes); `formats` lists exactly the
/// formats of the links, in order of first appearance; `isTruncated` only when the link limit was
/// reached; the same input extracts the same result; every resolved URL is absolute and a fixed
/// point of resolution and normalisation (the crawl's dedupe keys), and its fast normal-form
/// check agrees with the full one; resolving a link with variables never traps.
enum LinkFuzzer {
    static let mediaTypes: [String?] = [
        nil, "application/hal+json", "application/prs.hal-forms+json", "application/vnd.api+json",
        "application/vnd.siren+json", "application/vnd.collection+json", "application/json", "application/atom+xml",
        "application/xml", "text/plain", "application/octet-stream", "application/vnd.acme+json; profile=\"x\"",
        "text/html", "application/problem+json", "image/svg+xml", "application/hal+json; charset=utf-8",
    ]
    static let base = "http://api.example.test/v1/movies/?page=2"
    static let small = LinkExtractor.Limits(maximumLinks: 24, maximumNotes: 8, maximumDepth: 12, maximumBodyBytes: 4096, maximumHeaderBytes: 512)
    static let variables: [String: URITemplate.Value] = ["id": "42", "page": "2", "q": "a b/c", "list": ["x", "y"], "map": ["k": "v"]]

    static func runExtractor(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let selector = input.byte()
        let contentType = mediaTypes[Int(selector & 0x0F)]
        let limits = selector & 0x10 != 0 ? small : LinkExtractor.Limits()
        let body = Array(input.rest)
        let extractor = LinkExtractor(limits: limits)
        let extraction = extractor.extract(url: base, contentType: contentType, body: body)
        check(extraction, limits: limits)
        FuzzCheck.require(extractor.extract(url: base, contentType: contentType, body: body) == extraction, "extraction is not deterministic")
    }

    /// The input is the value of one `Link` header field (bit-repaired to UTF-8).
    static func runLinkHeader(_ data: [UInt8]) {
        let field = String(decoding: data, as: UTF8.self)
        let items = LinkHeaderParser.parse(field)
        FuzzCheck.require(items.count <= field.utf8.count, "more link values than bytes")
        // Each link value, written back canonically, parses to itself.
        for case .link(let value) in items {
            FuzzCheck.require(!value.target.utf8.contains(UInt8(ascii: ">")), "a target holds '>'")
            for parameter in value.parameters {
                FuzzCheck.require(!parameter.name.isEmpty && parameter.name == parameter.name.lowercased(), "parameter name not lower-cased: \(parameter.name)")
                FuzzCheck.require(!parameter.name.hasSuffix("*"), "an extended parameter was kept: \(parameter.name)")
            }
            let written = serialise(value)
            FuzzCheck.require(LinkHeaderParser.parse(written) == [.link(value)], "a link value does not parse back: \(written)")
        }
        let limits = LinkExtractor.Limits(maximumLinks: 64, maximumNotes: 16)
        let extraction = LinkExtractor(limits: limits).extract(url: base, headers: [HTTPHeader(name: "Link", value: field)], body: [])
        check(extraction, limits: limits)
        for link in extraction.links {
            FuzzCheck.require(link.format == .linkHeader, "a Link header gave a \(link.format) link")
            FuzzCheck.require(!link.rel.isEmpty && link.rel == link.rel.lowercased(), "a Link header rel is not lower-cased: \(link.rel)")
        }
    }

    /// `<target>; name="value"…`, values quoted with `\"` and `\\` escaped.
    static func serialise(_ value: LinkHeaderParser.Value) -> String {
        var text = "<" + value.target + ">"
        for parameter in value.parameters {
            text += "; " + parameter.name + "=\""
            for scalar in parameter.value.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { text += "\\" }
                text.unicodeScalars.append(scalar)
            }
            text += "\""
        }
        return text
    }

    static func check(_ extraction: LinkExtraction, limits: LinkExtractor.Limits) {
        FuzzCheck.require(extraction.links.count <= limits.maximumLinks, "\(extraction.links.count) links over the limit \(limits.maximumLinks)")
        let limitNotes = extraction.notes.filter { $0.kind == .limitReached }.count
        FuzzCheck.require(extraction.notes.count - limitNotes <= limits.maximumNotes, "\(extraction.notes.count) notes over the limit \(limits.maximumNotes)")
        FuzzCheck.require(limitNotes <= 4, "\(limitNotes) limit notes: a bound is reported more than once")
        FuzzCheck.require(!extraction.isTruncated || extraction.links.count == limits.maximumLinks, "truncated below the link limit")
        var formats: [LinkFormat] = []
        for link in extraction.links where !formats.contains(link.format) { formats.append(link.format) }
        FuzzCheck.require(formats == extraction.formats, "formats \(extraction.formats) but the links have \(formats)")
        for link in extraction.links.prefix(256) {
            if case .url(let url) = link.target { checkURL(url, of: link) }
            switch link.resolve(with: variables) {
            case .url(let url): checkURL(url, of: link)
            case .needsVariables(let names): FuzzCheck.require(!names.isEmpty, "needs no variables, yet unresolved: \(link)")
            case .invalidTemplate, .unresolvable: break
            }
        }
    }

    static func checkURL(_ url: String, of link: Link) {
        FuzzCheck.require(URIReference(parsing: url).scheme != nil, "a resolved URL is not absolute: \(url) (\(link))")
        FuzzCheck.require(URLResolution.resolve(url, against: base) == url, "a resolved URL resolves to another: \(url)")
        let key = URLResolution.normalisedKey(url)
        FuzzCheck.require(key == URLResolution.normalisedKeyByParsing(url), "the fast normal form disagrees: \(url)")
        FuzzCheck.require(URLResolution.normalisedKey(key) == key, "normalising is not idempotent: \(url) → \(key)")
    }
}
