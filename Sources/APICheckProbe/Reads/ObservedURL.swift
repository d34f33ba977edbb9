/// An absolute URL the crawl fetched, split the way template inference compares URLs: origin,
/// path segments and query pairs, all kept as the URI text they were (no decoding, so a template
/// built from them reproduces the URLs exactly). The fragment is dropped: it never reaches a server.
struct ObservedURL {
    /// `scheme://authority`, as written.
    var origin: String
    /// The path split on `/` after its leading `/`: `/books/1/` → `["books", "1", ""]`; `[]` for
    /// an empty path.
    var segments: [String]
    /// Whether the path started with `/` (it does unless it is empty).
    var hasPath: Bool
    /// `name=value` pairs in order; a pair without `=` has a `nil` value.
    var query: [(name: String, value: String?)]

    /// `nil` for a URL without `scheme://` (templates are inferred for absolute URLs only).
    init?(_ text: String) {
        let withoutFragment = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard let schemeEnd = withoutFragment.firstRange(of: "://") else { return nil }
        let afterScheme = withoutFragment[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        guard authorityEnd > afterScheme.startIndex else { return nil }
        origin = String(withoutFragment[..<authorityEnd])
        let rest = withoutFragment[authorityEnd...]
        let pathAndQuery = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = pathAndQuery[0]
        hasPath = path.hasPrefix("/")
        segments = hasPath ? path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init) : []
        query = []
        if pathAndQuery.count > 1, !pathAndQuery[1].isEmpty {
            for pair in pathAndQuery[1].split(separator: "&", omittingEmptySubsequences: false) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query.append((String(parts[0]), parts.count > 1 ? String(parts[1]) : nil))
            }
        }
    }

    /// The query's names in order, the key that keeps URLs with different parameters apart.
    var queryNames: [String] { query.map(\.name) }
}

/// What a path segment looks like, to tell ids (which vary between instances of one link) from
/// the words of a route (which do not).
enum SegmentShape: Hashable {
    case integer
    case uuid
    /// Hex digits with letters and digits, of this length (MongoDB ObjectIds, hashes).
    case hex(length: Int)
    /// Letters and digits mixed, with `-`/`_` allowed (base62 ids, slugs with a number).
    case token
    /// Anything else: route words (`search`, `books`), slugs without digits, encoded text.
    case word

    init(_ segment: String) {
        if DecimalDigits.isInteger(segment) {
            self = .integer
        } else if IdentifierShape.isUUID(segment) {
            self = .uuid
        } else {
            var letters = false, digits = false, hexOnly = true, tokenOnly = true
            for byte in segment.utf8 {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digits = true
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    letters = true
                    if !IdentifierShape.isHexDigit(byte) { hexOnly = false }
                case UInt8(ascii: "-"), UInt8(ascii: "_"): hexOnly = false
                default:
                    hexOnly = false
                    tokenOnly = false
                }
            }
            if hexOnly, letters, digits, segment.utf8.count >= 8 {
                self = .hex(length: segment.utf8.count)
            } else if tokenOnly, letters, digits, segment.utf8.count >= 4 {
                self = .token
            } else {
                self = .word
            }
        }
    }

    var isIdentifier: Bool { self != .word }
}
