import APICheckFindings
import APICheckJSON
@testable import APICheckProbe
import Foundation
import Testing

/// What is probed and what is left out, before anything is sent.
@Suite struct ProbePlannerTests {
    static func affordance(_ kind: Affordance.Kind, _ target: String, rel: String = "default", path: RelPath = ["authors"]) -> Affordance {
        Affordance(
            kind: kind, method: kind == .write ? "POST" : "GET", target: target, rel: rel, format: "HAL-FORMS", relPath: path.appending(rel),
            sourcePointer: nil, referrer: "http://api.test/")
    }

    static func planner(unsafe: Bool = false, only: [String] = [], skip: [String] = []) -> ProbePlanner {
        ProbePlanner(options: ProbeOptions(root: URL(string: "http://api.test/")!, unsafe: unsafe, only: only, skip: skip))
    }

    @Test func writesNeedUnsafeReadsAndSearchesDoNot() {
        let planner = Self.planner()
        #expect(planner.exclusion(of: Self.affordance(.write, "http://api.test/authors")) == "a write: needs --unsafe")
        #expect(planner.exclusion(of: Self.affordance(.queryForm, "http://api.test/books")) == nil)
        #expect(planner.exclusion(of: Self.affordance(.templatedRead, "http://api.test/items/{id}")) == nil)
        #expect(Self.planner(unsafe: true).exclusion(of: Self.affordance(.write, "http://api.test/authors")) == nil)
    }

    @Test func probesGoToTheRootsHostOnly() {
        let planner = Self.planner(unsafe: true)
        #expect(planner.exclusion(of: Self.affordance(.write, "http://evil.test/authors"))?.contains("another host") == true)
        #expect(planner.exclusion(of: Self.affordance(.write, "http://api.test:8080/authors"))?.contains("another host") == true)
        #expect(planner.exclusion(of: Self.affordance(.templatedRead, "https://api.test/items/{id}"))?.contains("another host") == true)
        #expect(planner.exclusion(of: Self.affordance(.templatedRead, "http://API.test:80/items/{id}")) == nil)
        #expect(ProbePlanner.origin(of: "http://api.test{/id}") == "http://api.test:80")
    }

    @Test func onlyAndSkipNameAPlaceOrARel() {
        let books = Self.affordance(.queryForm, "http://api.test/books", rel: "search", path: ["books"])
        let authors = Self.affordance(.queryForm, "http://api.test/authors", rel: "find", path: ["authors"])
        #expect(Self.planner(only: ["books"]).exclusion(of: books) == nil)
        #expect(Self.planner(only: ["books"]).exclusion(of: authors) == "not named by --only")
        #expect(Self.planner(only: ["find"]).exclusion(of: authors) == nil)
        #expect(Self.planner(skip: ["search"]).exclusion(of: books) == "--skip search")
    }

    @Test func aTemplateReadsItsVariablesBackFromURLs() throws {
        let matcher = try #require(TemplateMatcher("http://api.test/authors/{id}/books{/book}{?page}"))
        #expect(matcher.match("http://api.test/authors/3/books/9?page=2") == ["id": "3", "book": "9"])
        #expect(matcher.match("http://api.test/authors/3/books") == nil)
        #expect(matcher.match("http://api.test/authors//books/9") == nil)
        #expect(TemplateMatcher("http://api.test/search{?q}") == nil, "a query alone is not a read to probe")
        let read = Self.affordance(.templatedRead, "http://api.test/items/{id}")
        let observed = Self.planner().withObservedValues(read, fetched: [("http://api.test/items/1", ""), ("http://api.test/items/2", ""), ("http://api.test/", "")])
        #expect(observed.observedValues == ["id": ["1", "2"]])
    }
}
