import APICheckCrawler
import APICheckHypermedia
import APICheckModel
import APICheckVerifier

/// Extracts links from a body given as text.
func extract(
    _ body: String, url: String = "http://example.com/", contentType: String? = "application/json",
    headers: [HTTPHeader] = [], limits: LinkExtractor.Limits = LinkExtractor.Limits()
) -> LinkExtraction {
    LinkExtractor(limits: limits).extract(url: url, headers: headers, contentType: contentType, body: Array(body.utf8))
}

extension LinkExtraction {
    /// The links with rel `rel`, in order.
    func links(_ rel: String) -> [Link] { links.filter { $0.rel == rel } }

    /// The messages of the notes, in order.
    var messages: [String] { notes.map(\.message) }
}
