import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckReportFormats
import APICheckResponder
import APICheckSpool
import APICheckStubFiles
import APICheckVerifier
import Foundation
import Testing

/// The issue's acceptance on real data: crawling stubs/acmeflix in memory finds each seeded
/// defect exactly once per affected link, with the right rule id, and nothing else.
@Suite struct CrawlerAcmeFlixTests {
    static func crawl(
        _ folder: String, root: String = "http://localhost:3000/", configure: (inout CrawlOptions) -> Void = { _ in }
    ) async throws -> CrawlReport {
        let loaded = StubLoader().load([Repository.path(folder)])
        #expect(loaded.diagnostics.filter { $0.severity == .error }.isEmpty, "\(loaded.diagnostics)")
        var options = CrawlOptions(root: try #require(URL(string: root)))
        configure(&options)
        return await Crawler(fetcher: StubSetFetcher(stubs: loaded.stubSet), options: options).run()
    }

    @Test func findsEverySeededDefectOncePerAffectedLink() async throws {
        let report = try await Self.crawl("stubs/acmeflix")
        #expect(report.errors.isEmpty)
        #expect(report.exitCode == .contractViolations)
        let byRule = Dictionary(grouping: report.findings, by: \.rule)
        // Only the seeded kinds of defect.
        #expect(Set(byRule.keys) == [.typeSyntax, .typeMatches, .linkResolves, .duplicateRel])

        // Each vnd.acmeflix declaration (no top-level type) is one type-syntax finding per link.
        let declaredVendor = report.checks.filter { check in
            report.findings.contains { $0.rule == .typeSyntax && $0.sourcePointer == check.sourcePointer && $0.referrer == check.referrer && $0.declaredType?.hasPrefix("vnd.acmeflix.api.") == true }
        }
        let vendorSyntax = byRule[.typeSyntax, default: []].filter { $0.declaredType?.hasPrefix("vnd.acmeflix.api.") == true }
        #expect(vendorSyntax.count == declaredVendor.count)
        #expect(vendorSyntax.allSatisfy { $0.expected == "application/" + ($0.declaredType ?? "") })
        #expect(Set(vendorSyntax.map { "\($0.referrer ?? "") \($0.sourcePointer ?? "")" }).count == vendorSyntax.count, "once per link")

        // image/jpg: declared on the 12 movie pages, and served by the 11 working posters.
        let jpgSyntax = byRule[.typeSyntax, default: []].filter { $0.declaredType == "image/jpg" || ($0.declaredType == nil && $0.servedType == "image/jpg") }
        #expect(jpgSyntax.filter { $0.declaredType == "image/jpg" }.count == 12)
        #expect(jpgSyntax.filter { $0.declaredType == nil }.count == 11)
        #expect(byRule[.typeSyntax, default: []].count == vendorSyntax.count + jpgSyntax.count)

        // Declared vs served: every vendor JSON declaration on a GET link, and image/jpeg vs image/jpg.
        let mismatches = byRule[.typeMatches, default: []]
        #expect(mismatches.allSatisfy { $0.method == "GET" })
        #expect(mismatches.filter { $0.declaredType == "image/jpeg" && $0.servedType == "image/jpg" }.count == 11 + 1, "library posters + the cart's")
        #expect(mismatches.filter { $0.declaredType?.hasPrefix("vnd.acmeflix.api.") == true && $0.servedType == "application/json; charset=utf-8" }.count
            == vendorSyntax.filter { $0.method == "GET" }.count)
        #expect(mismatches.contains { $0.declaredType == "vnd.acmeflix.api.movies+json" }, "the plural type of the library's movie links")

        // The broken poster of 10CFL, once per link to it (the library's and the movie page's).
        let broken = byRule[.linkResolves, default: []]
        #expect(broken.count == 2)
        #expect(broken.allSatisfy { $0.url == "http://localhost:3000/poster/10CFL" && $0.actual == "500" })
        #expect(Set(broken.map(\.relPathDescription)) == ["root → library → movies[9].poster", "root → library → movies[9].self → poster"])

        // The duplicate self of pLDhp.
        let duplicates = byRule[.duplicateRel, default: []]
        #expect(duplicates.count == 1)
        #expect(duplicates.first?.url == "http://localhost:3000/movies/pLDhp" && duplicates.first?.rel == "self")

        // The unsafe links are checked against their stubs, and every one has a stub.
        let unsafe = report.checks.filter { $0.method != "GET" }
        #expect(Set(unsafe.compactMap(\.rel)) == ["rent", "rate", "add", "delete"])
        #expect(unsafe.allSatisfy { $0.outcome == .passed || $0.outcome == .failed })
        #expect(!report.findings.contains { $0.rule == .methodValid })
    }

    @Test func theReportDoesNotDependOnConcurrency() async throws {
        let one = try await Self.crawl("stubs/acmeflix") { $0.concurrency = 1 }
        let many = try await Self.crawl("stubs/acmeflix") { $0.concurrency = 64 }
        #expect(one.findings == many.findings)
        #expect(one.checks.map(\.url) == many.checks.map(\.url))
    }
}

extension CrawlerAcmeFlixTests {
    /// A fetcher's journal lists the requests a crawl sent; `apicheck crawl --stubs` keeps none
    /// (the last 100,000 requests held 60 MB of a 100,000-resource crawl) and the report is the same.
    @Test func anInMemoryCrawlKeepsAJournalUnlessToldNotTo() async throws {
        let loaded = StubLoader().load([Repository.path("stubs/acmeflix")])
        let options = CrawlOptions(root: try #require(URL(string: "http://localhost:3000/")))
        let kept = StubSetFetcher(stubs: loaded.stubSet)
        let report = await Crawler(fetcher: kept, options: options).run()
        #expect(report.statistics.requests > 10)
        #expect(kept.responder.journal.count == report.statistics.requests)

        let none = StubSetFetcher(stubs: loaded.stubSet, keepsJournal: false)
        let again = await Crawler(fetcher: none, options: options).run()
        #expect(none.responder.journal.count == 0)
        #expect(again.findings == report.findings && again.checks.map(\.url) == report.checks.map(\.url))
    }
}
