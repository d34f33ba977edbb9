/// What ``LinkExtractor`` found in one response.
public struct LinkExtraction: Sendable, Hashable {
    /// Every link, in document order: `Link` headers first, then the body.
    public var links: [Link]
    /// Shape problems and other observations, in document order.
    public var notes: [ShapeNote]
    /// The formats links were found in, in order of first appearance.
    public var formats: [LinkFormat]
    /// Links beyond the link limit: found and counted, not extracted.
    public var droppedLinks: Int
    /// `true` when the link limit dropped links.
    public var isTruncated: Bool { droppedLinks > 0 }
    /// `true` when the body was read as JSON and parsed (so it is JSON: no need to parse it again
    /// to check its type).
    public var bodyParsedAsJSON = false

    /// An extraction result.
    public init(links: [Link] = [], notes: [ShapeNote] = [], formats: [LinkFormat] = [], droppedLinks: Int = 0) {
        self.links = links
        self.notes = notes
        self.formats = formats
        self.droppedLinks = droppedLinks
    }
}
