import APICheckModel
import APICheckSpool

/// What a crawl covered, for the reports' words about it.
extension CrawlReport {
    /// A warning when a crawl checked no link at all: a root without links (Datasette's `/.json`,
    /// a plain JSON document, the wrong URL) passes with nothing checked beyond itself, which is
    /// not the same as an API without defects. `nil` otherwise, for verify reports, and when an
    /// infrastructure error already says what went wrong. The exit code is not changed: no
    /// finding failed.
    public var nothingCheckedWarning: String? {
        guard command == .crawl, errors.isEmpty else { return nil }
        let counts = counts
        guard counts.linksChecked == 0 else { return nil }
        let resources = "\(counts.resourcesFetched) \(counts.resourcesFetched == 1 ? "resource" : "resources")"
        if counts.linksFound == 0 {
            return "only \(resources) and 0 links were checked: the root advertises no link apicheck reads "
                + "(HAL, JSON:API, Siren, Collection+JSON, Link headers, Atom/XML, link arrays, URL-valued JSON fields); "
                + "is \(root) the API's root?"
        }
        let found = counts.linksFound == 1 ? "the 1 link found was" : "all \(counts.linksFound) links found were"
        return "only \(resources) and 0 links were checked: \(found) not checked or skipped (see why above)"
    }
}
