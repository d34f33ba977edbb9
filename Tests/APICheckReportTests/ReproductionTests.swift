import APICheckFindings
import APICheckReportFormats
import APICheckSpool
import Testing

/// A reproduction sends what the crawl sent, never more: without --unsafe a `DELETE` link was only
/// asked about with `OPTIONS` (trials: `reproduce: curl -i -X 'DELETE' …` after a crawl that sent
/// no DELETE).
@Suite struct ReproductionTests {
    static let root = "http://127.0.0.1:8080/"

    static let notAllowed = Finding(
        rule: .methodValid, method: "DELETE", url: "http://127.0.0.1:8080/orders/44", rel: "cancel", sourcePointer: "/actions/0",
        format: "Siren action", relPath: ["orders", "item[2]", "cancel"], referrer: "http://127.0.0.1:8080/orders/44",
        expected: "Allow to list DELETE", actual: "Allow: GET, OPTIONS",
        message: "the server does not allow DELETE on http://127.0.0.1:8080/orders/44 (Allow: GET, OPTIONS)")

    static func report(_ findings: [Finding]) -> CrawlReport {
        CrawlReport(
            tool: ToolInfo(name: "apicheck", version: "1.2.3"), root: root, startTime: SampleReports.start, duration: .seconds(1),
            statistics: CrawlStatistics(resourcesFetched: 3, requests: 4),
            checks: [CheckedLink(url: root + "orders", rel: "orders", relPath: ["orders"], referrer: root, outcome: .passed, statusCode: 200)],
            findings: findings)
    }

    /// The reproduction of a defect whose only occurrence is `finding`.
    func reproduction(_ finding: Finding, headers: [String] = []) -> String {
        Defect.cluster([finding], requestHeaders: headers).first?.reproduction ?? ""
    }

    @Test func withoutUnsafeTheReproductionAsksOptions() {
        #expect(reproduction(Self.notAllowed) == "curl -i -X 'OPTIONS' 'http://127.0.0.1:8080/orders/44'")
        #expect(reproduction(Self.notAllowed, headers: ["Authorization"])
            == #"curl -i -X 'OPTIONS' -H "Authorization: $AUTHORIZATION" 'http://127.0.0.1:8080/orders/44'"#)
        let report = Self.report([Self.notAllowed])
        for format in [ReportFormat.text, .junit, .github, .markdown, .sarif, .json] {
            let output = format.renderer().render(report)
            #expect(!output.contains("-X 'DELETE'") && !output.contains("-X &apos;DELETE&apos;"), "\(format)")
            #expect(output.contains("OPTIONS"), "\(format)")
        }
        #expect(TextReportRenderer().render(report).contains("  reproduce: curl -i -X 'OPTIONS' 'http://127.0.0.1:8080/orders/44'\n"))
    }

    @Test func withUnsafeTheMethodWasSentAndIsReproduced() {
        var sent = Self.notAllowed
        sent.expected = "a 2xx response"
        sent.actual = "404"
        sent.message = "DELETE http://127.0.0.1:8080/orders/44 answers 404"
        #expect(reproduction(sent) == "curl -i -X 'DELETE' 'http://127.0.0.1:8080/orders/44'")
    }

    @Test func anInMemoryCrawlSentNothingAndSaysSo() {
        var unanswered = Self.notAllowed
        unanswered.expected = "a stub answering DELETE /orders/44"
        unanswered.actual = "none"
        unanswered.message = "no stub answers DELETE /orders/44"
        let reproduction = reproduction(unanswered)
        #expect(reproduction == "# nothing was sent: the crawl ran in memory (--stubs), and no stub answers DELETE /orders/44")
        #expect(TextReportRenderer().render(Self.report([unanswered])).contains("  reproduce: # nothing was sent: the crawl ran in memory (--stubs)"))
    }

    @Test func aLinkNeverRequestedIsSeenWhereItIsWritten() {
        let template = Finding(
            rule: .templateValid, url: "http://127.0.0.1:8080/events{?page", rel: "public_events", relPath: ["public_events"], referrer: Self.root,
            actual: "http://127.0.0.1:8080/events{?page", message: "the templated href is not valid RFC 6570: offset 28: the expression opened here is never closed with '}'")
        #expect(reproduction(template) == "curl -i 'http://127.0.0.1:8080/'")
        let method = Finding(
            rule: .methodValid, method: "FETCH", url: "http://127.0.0.1:8080/orders", rel: "search-orders", relPath: ["orders", "search-orders"],
            referrer: "http://127.0.0.1:8080/orders", expected: "an HTTP method", actual: "FETCH", message: "'FETCH' is not an HTTP method")
        #expect(reproduction(method) == "curl -i 'http://127.0.0.1:8080/orders'")
        let declared = Finding(
            rule: .typeSyntax, method: "DELETE", url: "http://127.0.0.1:8080/cart/1", rel: "delete", declaredType: "vnd.x+json",
            relPath: ["cart", "delete"], referrer: "http://127.0.0.1:8080/cart", expected: "application/vnd.x+json", actual: "vnd.x+json",
            message: "the declared type 'vnd.x+json' lacks a top-level type: write 'application/vnd.x+json'")
        #expect(reproduction(declared) == "curl -i 'http://127.0.0.1:8080/cart'")
        // A fetched resource's own findings are reproduced by fetching it.
        let broken = Finding(
            rule: .linkResolves, url: "http://127.0.0.1:8080/hub", rel: "hub", relPath: ["hub"], referrer: Self.root,
            expected: "a 2xx response", actual: "404", message: "the link answers 404")
        #expect(reproduction(broken) == "curl -i 'http://127.0.0.1:8080/hub'")
    }
}
