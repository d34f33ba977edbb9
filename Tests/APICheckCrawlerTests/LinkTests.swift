import APICheckCrawler
import APICheckHypermedia
import APICheckJSON
import APICheckVerifier
import Testing

@Suite struct LinkTests {
    private func link(_ href: String, templated: Bool = false, base: String = "http://localhost:3000/movies/",
                      parameters: [LinkParameter] = []) -> Link {
        Link(
            context: base, base: base, rel: "x", href: href, target: Link.target(forHref: href, base: base, templated: templated),
            parameters: parameters, format: .linkArray, source: .jsonPointer("/_links/0"))
    }

    @Test func plainHrefsResolveAgainstTheBase() {
        #expect(link("pLDhp").url == "http://localhost:3000/movies/pLDhp")
        #expect(link("../poster/pLDhp?x=1#top").url == "http://localhost:3000/poster/pLDhp?x=1#top")
        #expect(link("").url == "http://localhost:3000/movies/")
        #expect(link("/caf\u{E9}").url == "http://localhost:3000/caf%C3%A9")
        #expect(link("pLDhp").resolve() == .url("http://localhost:3000/movies/pLDhp"))
        #expect(!link("pLDhp").isTemplated)
    }

    @Test func invalidReferencesAreUnresolvableWithAReason() {
        guard case .unresolvable(let reason) = link("/a b").target else {
            Issue.record("a space is not a URI")
            return
        }
        #expect(reason == "'/a b' is not a valid URI reference: it contains a space at offset 2 (write %20)")
        #expect(link("/a b").url == nil)
        #expect(link("/movies/1}").target == .unresolvable("'/movies/1}' is not a valid URI reference: '}' at offset 9 is not allowed in a URI (write %7D)"))
        guard case .unresolvable(let relative) = link("x", base: "/not/absolute").target else {
            Issue.record("a relative base resolves nothing")
            return
        }
        #expect(relative.contains("not an absolute URL"))
        #expect(link("https://a/x", base: "/not/absolute").url == "https://a/x")
    }

    @Test func templatesAreNeverFetchedLiterally() {
        let movie = link("/movies/{id}")
        #expect(movie.isTemplated)
        #expect(movie.url == nil)
        #expect(movie.template?.variableNames == ["id"])
        #expect(movie.resolve() == .needsVariables(["id"]))
        #expect(movie.resolve(with: ["id": "pLDhp"]) == .url("http://localhost:3000/movies/pLDhp"))

        // Query-only templates expand with what is known, possibly nothing.
        let search = link("/movies{?q,page}")
        #expect(search.resolve() == .url("http://localhost:3000/movies"))
        #expect(search.resolve(with: ["page": "2"]) == .url("http://localhost:3000/movies?page=2"))

        // `templated: true` without expressions is a plain link.
        #expect(link("/movies", templated: true).url == "http://localhost:3000/movies")
    }

    @Test func invalidTemplatesCarryTheError() {
        let broken = link("/movies/{id")
        guard case .invalidTemplate(let error) = broken.target else {
            Issue.record("an unclosed expression is an invalid template")
            return
        }
        #expect(error.offset == 8)
        #expect(broken.isTemplated)
        #expect(broken.resolve() == .invalidTemplate(error))
    }

    @Test func parametersFillTemplateVariablesButVarsWin() {
        let parameters = [
            LinkParameter(name: "id", value: "pLDhp"),
            LinkParameter(name: "rating", value: "{rating}"),  // a placeholder, not a value
            LinkParameter(name: "year", value: .number("1999")),
        ]
        let rate = link("/movies/{id}{?rating,year}", parameters: parameters)
        #expect(rate.resolve() == .url("http://localhost:3000/movies/pLDhp?year=1999"))
        #expect(rate.resolve(with: ["id": "iBZQ9", "rating": "5"]) == .url("http://localhost:3000/movies/iBZQ9?rating=5&year=1999"))
        #expect(link("/movies/{rating}", parameters: parameters).resolve() == .needsVariables(["rating"]))
        #expect(parameters.map(\.concreteValue) == ["pLDhp", nil, "1999"])
    }

    @Test func expansionErrorsAreReported() {
        guard case .invalidTemplate(let error) = link("/x{/list:2}").resolve(with: ["list": ["a"]]) else {
            Issue.record("a prefix on a list cannot expand")
            return
        }
        #expect(error.isSyntaxError == false)
    }

    @Test func jsonPointersEscapeTokens() {
        #expect(JSONPointer.pointer(["_links", "a/b", "m~n", "0"]) == "/_links/a~1b/m~0n/0")
        #expect(JSONPointer.pointer([]) == "")
        #expect(LinkSource.jsonPointer("").description == "(document root)")
        #expect(LinkSource.linkHeader(2).description == "Link header #2")
    }
}
