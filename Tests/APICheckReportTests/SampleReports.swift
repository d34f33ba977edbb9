import APICheckFindings
import APICheckReportFormats
import APICheckSpool
import Foundation

/// A small crawl of an AcmeFlix-like API: every outcome, both severities, a finding that
/// belongs to no checked link.
enum SampleReports {
    static let root = "https://api.example.com/"
    static let movie = "https://api.example.com/movies/3"
    static let poster = "https://api.example.com/movies/3/poster"
    /// 2025-03-01T12:00:00Z.
    static let start = Date(timeIntervalSince1970: 1_740_830_400)

    static let checks: [CheckedLink] = [
        CheckedLink(url: root, outcome: .passed, statusCode: 200, duration: .milliseconds(12)),
        CheckedLink(
            url: "https://api.example.com/movies", rel: "movies", relPath: ["movies"], referrer: root,
            sourcePointer: "/_links/movies", outcome: .passed, statusCode: 200, duration: .milliseconds(20)),
        CheckedLink(
            url: poster, rel: "poster", relPath: ["library", "movies[3]", "poster"], referrer: movie,
            sourcePointer: "/_links/poster", outcome: .failed, statusCode: 404, duration: .milliseconds(31)),
        CheckedLink(
            url: "https://api.example.com/movies{?page}", rel: "search", relPath: ["search"], referrer: root,
            sourcePointer: "/_links/search", outcome: .notChecked(reason: "needs variables: page")),
        CheckedLink(
            url: "https://partner.example.org/", rel: "partner", relPath: ["partner"], referrer: root,
            sourcePointer: "/_links/partner", outcome: .skipped(reason: "other origin")),
        CheckedLink(
            method: "DELETE", url: movie, rel: "delete", relPath: ["library", "movies[3]", "delete"], referrer: movie,
            sourcePointer: "/_links/delete", outcome: .skipped(reason: "unsafe method without --unsafe")),
    ]

    static let brokenPoster = Finding(
        rule: .linkResolves, url: poster, rel: "poster", declaredType: "image/jpeg", sourcePointer: "/_links/poster",
        format: "HAL", relPath: ["library", "movies[3]", "poster"], referrer: movie, expected: "2xx", actual: "404 Not Found",
        message: "the link does not resolve")

    static let jpgType = Finding(
        rule: .typeSyntax, url: poster, rel: "poster", declaredType: "image/jpg", sourcePointer: "/_links/poster", format: "HAL",
        relPath: ["library", "movies[3]", "poster"], referrer: movie, expected: "image/jpeg", actual: "image/jpg",
        message: "the declared type is not registered")

    static let embeddedArray = Finding(
        rule: .formatShape, url: movie, sourcePointer: "/_embedded", format: "HAL", relPath: ["library", "movies[3]"],
        expected: "an object", actual: "an array", message: "_embedded must be an object of resources")

    static func report(
        findings: [Finding] = [brokenPoster, jpgType, embeddedArray],
        checks: [CheckedLink] = checks,
        errors: [CrawlProblem] = [],
        configuration: RuleConfiguration = RuleConfiguration(),
        shard: Shard? = nil
    ) -> CrawlReport {
        CrawlReport(
            tool: ToolInfo(name: "apicheck", version: "1.2.3", informationURI: "https://example.com/apicheck"),
            root: root, startTime: start, duration: .milliseconds(3250), shard: shard, configuration: configuration,
            statistics: CrawlStatistics(resourcesFetched: 4, requests: 5), checks: checks, findings: findings, errors: errors)
    }
}
