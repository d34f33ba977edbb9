import APICheckFindings
import APICheckHypermedia

/// Sees every resource a crawl fetched, in the order the report lists them, with its links and
/// (when it answered 2xx) its body: what `apicheck probe` collects write affordances and
/// templated reads from. The crawl itself is the same with or without an observer.
public protocol CrawlObserver: Sendable {
    /// Called once per resource, from the crawl's consuming side (one at a time, in order).
    func crawled(_ resource: CrawledResource)
}

/// One fetched resource, as an observer sees it.
public struct CrawledResource: Sendable {
    /// The URL that answered (after redirects).
    public var url: String
    /// `nil` when no answer came (a failure, a timeout, a skip).
    public var status: Int?
    public var contentType: String?
    /// The rels followed from the root to reach it.
    public var relPath: RelPath
    /// The links it advertises (the document's included), each with its rel path.
    public var links: [(link: Link, relPath: RelPath)]
    /// The whole body of a 2xx answer; `nil` otherwise (or when cut at `--max-body`).
    public var body: [UInt8]?

    public init(url: String, status: Int?, contentType: String?, relPath: RelPath, links: [(link: Link, relPath: RelPath)], body: [UInt8]?) {
        self.url = url
        self.status = status
        self.contentType = contentType
        self.relPath = relPath
        self.links = links
        self.body = body
    }
}
