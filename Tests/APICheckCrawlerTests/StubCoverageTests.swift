import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import APICheckVerifier
import Foundation
import Testing

/// `verify --coverage`: which kinds of live resource no stub answers.
@Suite struct StubCoverageTests {
    private let origin = "http://api.test"

    private func stubs(_ paths: [String]) throws -> StubSet {
        StubSet(try paths.enumerated().map { index, path in
            Stub(
                id: "\(index)", name: path, request: RequestPattern(method: "GET", path: try PathPattern.parse(path).get()), response: StubResponse(),
                source: SourceLocation(path: "s.json"))
        })
    }

    private func check(_ path: String, _ relPath: [String], status: Int = 200) -> CheckedLink {
        CheckedLink(url: origin + path, rel: relPath.last, relPath: RelPath(relPath), outcome: .passed, statusCode: status)
    }

    private func crawl(_ checks: [CheckedLink]) -> CrawlReport {
        CrawlReport(tool: ToolInfo(version: "t"), root: origin + "/", startTime: Date(), duration: .zero, checks: checks)
    }

    /// The root links /widgets/1 as `featured` before the collection lists it as an item: the
    /// item kind is covered by the stub for /widgets/1 all the same.
    @Test func aKindIsCoveredWhenAStubAnswersAnyResourceItReaches() throws {
        let report = crawl([
            check("/", []), check("/widgets", ["widgets"]), check("/widgets/1", ["featured"]),
            check("/widgets/1", ["widgets", "item[0]"]), check("/widgets/2", ["widgets", "item[1]"]),
        ])
        let gaps = StubCoverage.gaps(of: try stubs(["/", "/widgets", "/widgets/1"]), in: report, origin: origin)
        #expect(gaps.isEmpty, "\(gaps.map(\.kind))")
        let without = StubCoverage.gaps(of: try stubs(["/", "/widgets"]), in: report, origin: origin)
        #expect(without.map(\.kind) == ["root → featured", "root → widgets → item[*]"])
        #expect(without.map(\.count) == [1, 2], "the item kind reaches two resources")
    }

    /// `self` and `up` links back to known resources are not kinds of their own, and broken
    /// links and other origins are not gaps.
    @Test func linksBackAndBrokenLinksAddNoGaps() throws {
        let report = crawl([
            check("/", []), check("/orders", ["orders"]), check("/orders", ["orders", "self"]), check("/", ["orders", "up"]),
            check("/gone", ["gone"], status: 404),
            CheckedLink(url: "http://elsewhere.test/x", relPath: ["partner"], outcome: .passed, statusCode: 200),
        ])
        let gaps = StubCoverage.gaps(of: try stubs(["/"]), in: report, origin: origin)
        #expect(gaps.map(\.kind) == ["root → orders"])
        let findings = StubCoverage.findings(for: gaps)
        #expect(findings.map(\.rule) == [.driftCoverage])
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.message == "no stub answers root → orders (1 resource live)")
    }
}
