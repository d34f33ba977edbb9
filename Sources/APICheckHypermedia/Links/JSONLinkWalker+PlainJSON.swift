import APICheckJSON
import APICheckModel

/// Plain-JSON links: URL-valued fields, as GitHub's API (`"current_user_url": "https://…"`),
/// Django REST framework roots (`"books": "http://host/books/"`) and many in-house APIs write them.
///
/// A string member is a link when
/// - its key names a URL (`…_url`, `…Url`, `…_href`, `…Href`, `href`, `url`, `link`, or a
///   pagination name: `next`, `prev`, `previous`, `first`, `last`) and its value is an http(s) URL
///   or a path (`/…`), or
/// - its value, whatever the key, is an absolute http(s) URL,
///
/// and in both cases it points at the document's own origin: a URL on another host (an avatar
/// CDN, a web page, a documentation site) is data, not a link the crawl could follow. Values with
/// braces are RFC 6570 templates (GitHub's `{/owner}`, `{?q,page}`), never fetched literally. The
/// rel is the key without its URL suffix (`current_user_url` → `current_user`); for `href`, `url`
/// and `link` it is the name of the object holding them (the resource's own `url` at the top is
/// `self`, as is a list element's). Every other format runs first: a field it already read as a link is not read again.
extension JSONLinkWalker {
    /// Longest value read as a URL; longer strings are data (a 10 MB field is never parsed).
    static let maximumPlainURLBytes = 8 << 10

    private static let urlSuffixes = ["_url", "Url", "_href", "Href"]
    private static let urlKeys: Set<String> = ["href", "url", "link"]
    private static let paginationKeys: Set<String> = ["next", "prev", "previous", "first", "last"]

    /// Members a hypermedia format owns: HAL's are never read as plain JSON; the others
    /// (``isFormatKey(_:)``) once a format has read a link in them (a link object it found broken
    /// is its finding, not a plain link), and read as plain JSON otherwise (`"links": {"next":
    /// "…"}` in a plain API).
    private static let halKeys: Set<String> = ["_links", "_templates"]

    /// The pointers a hypermedia format has read: each link's own source, and the format member
    /// (`/links`, `/entities`, `/data/0/relationships`, …) it was found in.
    static func formatAreas(of links: [Link]) -> Set<String> {
        var areas = Set<String>(minimumCapacity: links.count)
        for index in links.indices where links[index].source.kind == .jsonPointer {
            let path = links[index].source.path
            areas.insert(path)
            // The pointer up to its first format member, read token by token in place.
            var start = path.startIndex
            while true {
                let end = path[start...].firstIndex(of: "/") ?? path.endIndex
                if isFormatKey(path[start..<end]) {
                    areas.insert(String(path[..<end]))
                    break
                }
                guard end < path.endIndex else { break }
                start = path.index(after: end)
            }
        }
        return areas
    }

    /// The members under which a hypermedia format (Siren, JSON:API, link arrays) lists links.
    private static func isFormatKey(_ token: Substring) -> Bool {
        token == "links" || token == "actions" || token == "entities" || token == "relationships"
    }

    /// Walks `root` for plain-JSON links, skipping HAL's members and the pointers in `covered`
    /// (``formatAreas(of:)``) with everything below them.
    mutating func walkPlainJSON(_ root: JSONNode, covered: Set<String>) {
        let origin = Self.origin(of: base)
        guard !origin.isEmpty else { return }
        walkPlain(root, parentKey: nil, depth: 0, origin: origin, covered: covered)
    }

    private mutating func walkPlain(_ node: JSONNode, parentKey: String?, depth: Int, origin: String, covered: Set<String>) {
        switch node.kind {
        case .object(let members):
            let owner = depth == 0 ? "" : pointer
            for member in members where !Self.halKeys.contains(member.key) {
                push(member.key)
                defer { pop() }
                // Only a format member can be a covered area (``formatAreas(of:)``); building the
                // pointer of every other member would cost more than the walk.
                if Self.isFormatKey(member.key[...]), covered.contains(pointer) { continue }
                switch member.value.kind {
                case .string(let value):
                    plainLink(key: member.key, value: value, node: member.value, parentKey: parentKey, owner: owner, origin: origin)
                case .array(let elements) where elements.contains(where: { $0.stringValue != nil }):
                    // A list of URLs (DRF's hyperlinked `many=True` fields): each is a link named by the key.
                    for (index, element) in elements.enumerated() {
                        guard case .string(let value) = element.kind else { continue }
                        push(index)
                        plainLink(key: member.key, value: value, node: element, parentKey: parentKey, owner: owner, origin: origin)
                        pop()
                    }
                default:
                    walkPlain(member.value, parentKey: member.key, depth: depth + 1, origin: origin, covered: covered)
                }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                push(index)
                defer { pop() }
                // An element's own `url` is its self link, not the list's.
                walkPlain(element, parentKey: nil, depth: depth + 1, origin: origin, covered: covered)
            }
        default:
            return
        }
    }

    /// `owner`: the pointer of the object holding the field (`""` for the document itself).
    private mutating func plainLink(key: String, value: String, node: JSONNode, parentKey: String?, owner: String, origin: String) {
        // Cheap first: a link value starts with `/` or `h` (http, https).
        guard let first = value.utf8.first, first == UInt8(ascii: "/") || first | 0x20 == UInt8(ascii: "h") else { return }
        guard value.utf8.count <= Self.maximumPlainURLBytes else { return }
        let suffix = Self.urlSuffixes.first { key.hasSuffix($0) && key.count > $0.count }
        let namesURL = suffix != nil || Self.urlKeys.contains(key) || Self.paginationKeys.contains(key)
        let isAbsolute = Self.isHTTPURL(value)
        let isPath = value.hasPrefix("/") && !value.hasPrefix("//")
        guard isAbsolute || (namesURL && isPath) else { return }
        guard !value.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return }  // prose, not a URL
        if isAbsolute, Self.origin(of: value) != origin { return }  // another host: data, not a link

        let rel: String
        if let suffix {
            rel = String(key.dropLast(suffix.count))
        } else if Self.urlKeys.contains(key) {
            rel = parentKey ?? "self"
        } else {
            rel = key
        }
        let templated = URITemplate.looksTemplated(value)
        collector.add(Link(
            context: base, base: base, rel: rel, href: value, target: Link.target(forHref: value, base: base, templated: templated),
            format: .plainJSON, source: source(node), owner: owner, isNested: !owner.isEmpty))
    }

    /// `http://` or `https://`, case-insensitively.
    private static func isHTTPURL(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        for expected in "http".utf8 {
            guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
        }
        var next = bytes.next()
        if next.map({ $0 | 0x20 }) == UInt8(ascii: "s") { next = bytes.next() }
        return next == UInt8(ascii: ":") && bytes.next() == UInt8(ascii: "/") && bytes.next() == UInt8(ascii: "/")
    }

    /// `scheme://host[:port]`, lower-cased, default port dropped; the part before any template
    /// expression. Empty when `url` has no scheme or authority.
    static func origin(of url: String) -> String {
        let literal = url.split(separator: "{", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? url
        let reference = URIReference(parsing: literal)
        guard let scheme = reference.scheme?.lowercased(), var authority = reference.authority?.lowercased(), !authority.isEmpty else { return "" }
        if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
        let defaultPort = scheme == "https" ? ":443" : scheme == "http" ? ":80" : nil
        if let defaultPort, authority.hasSuffix(defaultPort) { authority.removeLast(defaultPort.count) }
        return "\(scheme)://\(authority)"
    }
}
