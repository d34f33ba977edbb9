import APICheckModel
import Foundation
import Testing

/// Builds stubs tersely for matching tests.
func makeStub(
    _ name: String, _ method: String? = "GET", _ path: String, query: [ValueConstraint] = [],
    headers: [ValueConstraint] = [], body: [BodyConstraint] = [], origin: OriginConstraint? = nil,
    priority: Int = 0, scenario: ScenarioTag? = nil
) -> Stub {
    let pattern = (try? PathPattern.parse(path).get())!
    return Stub(
        id: name, name: name,
        request: RequestPattern(method: method, path: pattern, query: query, headers: headers, body: body, origin: origin),
        response: StubResponse(status: 200), priority: priority,
        source: SourceLocation(path: "stubs/\(name).xml", line: 2, column: 1), scenario: scenario
    )
}

@Suite struct StubSetTests {
    @Test func literalBeatsTemplateBeatsGlob() {
        let set = StubSet([
            makeStub("glob", "GET", "/movies/*"),
            makeStub("template", "GET", "/movies/{id}"),
            makeStub("literal", "GET", "/movies/1msRby"),
        ])
        #expect(set.match(StubRequest(method: "GET", path: "/movies/1msRby")).matched?.stub.name == "literal")
        let templated = set.match(StubRequest(method: "GET", path: "/movies/pLDhp")).matched
        #expect(templated?.stub.name == "template")
        #expect(templated?.pathParameters == ["id": "pLDhp"])
        #expect(set.match(StubRequest(method: "GET", path: "/movies/a/b")).matched == nil)
    }

    @Test func moreConstraintsThenPriorityThenFileOrder() {
        let set = StubSet([
            makeStub("first", "GET", "/search"),
            makeStub("second", "GET", "/search"),
            makeStub("preferred", "GET", "/search", priority: 5),
            makeStub("page 2", "GET", "/search", query: [ValueConstraint(name: "page", value: "2")]),
        ])
        #expect(set.match(StubRequest(method: "GET", target: "/search?page=2")).matched?.stub.name == "page 2")
        #expect(set.match(StubRequest(method: "GET", target: "/search?page=3")).matched?.stub.name == "preferred")
        let noPriority = StubSet([makeStub("first", "GET", "/search"), makeStub("second", "GET", "/search")])
        #expect(noPriority.match(StubRequest(method: "GET", path: "/search")).matched?.stub.name == "first")
    }

    @Test func templateSegmentsWithPrefixAndSuffix() {
        let set = StubSet([makeStub("poster", "GET", "/poster/{id}.jpg")])
        #expect(set.match(StubRequest(method: "GET", path: "/poster/10CFL.jpg")).matched?.pathParameters == ["id": "10CFL"])
        #expect(set.match(StubRequest(method: "GET", path: "/poster/.jpg")).matched == nil)
        #expect(set.match(StubRequest(method: "GET", path: "/poster/10CFL.png")).matched == nil)
    }

    @Test func globsWithinAndAcrossSegments() {
        let set = StubSet([makeStub("images", "GET", "/static/*.png"), makeStub("anything", "GET", "/files/**")])
        #expect(set.match(StubRequest(method: "GET", path: "/static/logo.png")).matched?.stub.name == "images")
        #expect(set.match(StubRequest(method: "GET", path: "/static/a/logo.png")).matched == nil)
        #expect(set.match(StubRequest(method: "GET", path: "/files/a/b/c.txt")).matched?.stub.name == "anything")
        #expect(set.match(StubRequest(method: "GET", path: "/files")).matched?.stub.name == "anything")
        let catchAll = StubSet([makeStub("all", nil, "/**")])
        #expect(catchAll.match(StubRequest(method: "DELETE", path: "/x/y")).matched?.stub.name == "all")
    }

    @Test func invalidPatternsAreRefused() {
        for pattern in ["movies", "/a/{}", "/a/{id}/{id}", "/a/{b}{c}", "/a/{b"] {
            #expect(throws: PatternError.self, "\(pattern)") { try PathPattern.parse(pattern).get() }
        }
    }

    @Test func headersAreCaseInsensitiveAndValuesExact() {
        let set = StubSet([makeStub("json", "GET", "/a", headers: [ValueConstraint(name: "Accept", value: "application/json"), ValueConstraint(name: "X-Trace")])])
        let matching = StubRequest(method: "GET", path: "/a", headers: [HTTPHeader(name: "accept", value: "application/json"), HTTPHeader(name: "x-trace", value: "1")])
        #expect(set.match(matching).matched != nil)
        let wrongValue = StubRequest(method: "GET", path: "/a", headers: [HTTPHeader(name: "Accept", value: "text/html"), HTTPHeader(name: "X-Trace", value: "1")])
        #expect(set.match(wrongValue).matched == nil)
        let missing = StubRequest(method: "GET", path: "/a", headers: [HTTPHeader(name: "Accept", value: "application/json")])
        #expect(set.match(missing).matched == nil)
    }

    @Test func bodyJSONAndContains() {
        let set = StubSet([
            makeStub("rent", "PUT", "/cart", body: [.jsonPointer(path: "/movieId", equals: "iBZQ9")]),
            makeStub("rate five", "PUT", "/cart", body: [.jsonPointer(path: "/rating", equals: "5")]),
            makeStub("xml", "POST", "/cart", body: [.contains("<movie")]),
        ])
        #expect(set.match(StubRequest(method: "PUT", path: "/cart", body: Data(#"{"movieId":"iBZQ9"}"#.utf8))).matched?.stub.name == "rent")
        #expect(set.match(StubRequest(method: "PUT", path: "/cart", body: Data(#"{"rating":5.0}"#.utf8))).matched?.stub.name == "rate five")
        #expect(set.match(StubRequest(method: "PUT", path: "/cart", body: Data(#"{"movieId":"other"}"#.utf8))).matched == nil)
        #expect(set.match(StubRequest(method: "PUT", path: "/cart", body: Data("not json".utf8))).matched == nil)
        #expect(set.match(StubRequest(method: "POST", path: "/cart", body: Data("<movie id='1'/>".utf8))).matched?.stub.name == "xml")
    }

    @Test func originOnlyWhenAsked() throws {
        let set = StubSet([
            makeStub("local", "GET", "/", origin: OriginConstraint(scheme: "http", host: "localhost", port: 3000)),
            makeStub("anywhere", "GET", "/"),
        ])
        let local = StubRequest(method: "GET", url: try #require(URL(string: "http://LOCALHOST:3000/")))
        #expect(set.match(local).matched?.stub.name == "local")
        let other = StubRequest(method: "GET", url: try #require(URL(string: "https://example.com/")))
        #expect(set.match(other).matched?.stub.name == "anywhere")
    }

    @Test func scenarioSelectionNarrowsAUseCase() {
        let set = StubSet([
            makeStub("fail", "POST", "/session", scenario: ScenarioTag(useCase: "welcome/sign-in", name: "fail-locked")),
            makeStub("success", "POST", "/session", scenario: ScenarioTag(useCase: "welcome/sign-in", name: "success")),
        ])
        let request = StubRequest(method: "POST", path: "/session")
        #expect(set.match(request).matched?.stub.name == "fail")
        #expect(set.match(request, scenarios: ["welcome/sign-in": "success"]).matched?.stub.name == "success")
        guard case .unmatched(let report) = set.match(request, scenarios: ["welcome/sign-in": "none-such"]) else {
            Issue.record("expected no match")
            return
        }
        #expect(report.description.contains("none-such is active"))
    }

    @Test func nearMissReportNamesTheClosestStubsAndWhy() {
        let set = StubSet([
            makeStub("movie", "GET", "/movies/{id}", headers: [ValueConstraint(name: "Accept", value: "application/json")]),
            makeStub("rent", "PUT", "/cart/AzCa3T"),
            makeStub("root", "GET", "/"),
            makeStub("library", "GET", "/library"),
        ])
        guard case .unmatched(let report) = set.match(StubRequest(method: "GET", path: "/cart/AzCa3T")) else {
            Issue.record("expected no match")
            return
        }
        #expect(report.nearMisses.count == StubSet.nearMissLimit)
        #expect(report.nearMisses.first?.stub.name == "rent")
        #expect(report.nearMisses.first?.differences == [.method(expected: "PUT", actual: "GET")])
        #expect(report.description.contains("No stub matches GET /cart/AzCa3T"))
        #expect(report.description.contains("method: expected PUT, got GET"))
        #expect(report.description.contains("stubs/rent.xml:2:1"))

        guard case .unmatched(let header) = set.match(StubRequest(method: "GET", path: "/movies/1")) else {
            Issue.record("expected no match")
            return
        }
        #expect(header.nearMisses.first?.stub.name == "movie")
        #expect(header.description.contains("Accept is missing"))
    }

    @Test func nearMissesInALargeSetStillFindTheClosestStubs() {
        var stubs: [Stub] = (0..<(StubSet.nearMissSearchLimit * 3)).map { makeStub("filler \($0)", "GET", "/filler/\($0)") }
        stubs.append(makeStub("rent", "PUT", "/cart/AzCa3T"))
        stubs.append(makeStub("movie", "GET", "/api/movies/{id}", headers: [ValueConstraint(name: "Accept", value: "application/json")]))
        let set = StubSet(stubs)
        guard case .unmatched(let method) = set.match(StubRequest(method: "GET", path: "/cart/AzCa3T")) else {
            Issue.record("expected no match")
            return
        }
        #expect(method.nearMisses.first?.stub.name == "rent")
        guard case .unmatched(let header) = set.match(StubRequest(method: "GET", path: "/api/movies/7")) else {
            Issue.record("expected no match")
            return
        }
        #expect(header.nearMisses.first?.stub.name == "movie")
        #expect(header.nearMisses.first?.differences.count == 1)
    }

    @Test func manyPatternsUnderOneSharedPrefixEachMatchTheirOwnPaths() {
        var stubs: [Stub] = []
        for resource in ["movies", "carts", "posters", "users"] {
            stubs.append(makeStub(resource, "GET", "/api/v1/\(resource)/{id}"))
            stubs.append(makeStub("\(resource) items", "GET", "/api/v1/\(resource)/{id}/items/{item}"))
        }
        stubs.append(makeStub("anything under v1", "GET", "/api/v1/**"))
        let set = StubSet(stubs)
        #expect(set.match(StubRequest(method: "GET", path: "/api/v1/carts/7")).matched?.stub.name == "carts")
        let item = set.match(StubRequest(method: "GET", path: "/api/v1/users/3/items/9")).matched
        #expect(item?.stub.name == "users items")
        #expect(item?.pathParameters == ["id": "3", "item": "9"])
        #expect(set.match(StubRequest(method: "GET", path: "/api/v1/other/1")).matched?.stub.name == "anything under v1")
        #expect(set.match(StubRequest(method: "GET", path: "/api/v2/movies/1")).matched == nil)
    }

    @Test func pathsCompareByTheirBytes() {
        let set = StubSet([
            makeStub("literal", "GET", "/films/amélie"),
            makeStub("title", "GET", "/titles/{title}"),
            makeStub("poster", "GET", "/poster/é-{id}.jpg"),
            makeStub("glob", "GET", "/files/*ü*"),
        ])
        #expect(set.match(StubRequest(method: "GET", path: "/films/amélie")).matched?.stub.name == "literal")
        // The same text decomposed (e + combining acute) is other bytes, as it is on the wire.
        #expect(set.match(StubRequest(method: "GET", path: "/films/ame\u{301}lie")).matched == nil)
        #expect(set.match(StubRequest(method: "GET", path: "/titles/日本語")).matched?.pathParameters == ["title": "日本語"])
        #expect(set.match(StubRequest(method: "GET", path: "/poster/é-日本.jpg")).matched?.pathParameters == ["id": "日本"])
        #expect(set.match(StubRequest(method: "GET", path: "/poster/é-.jpg")).matched == nil)
        #expect(set.match(StubRequest(method: "GET", path: "/files/grüße")).matched?.stub.name == "glob")
        #expect(set.match(StubRequest(method: "GET", path: "/files/gruesse")).matched == nil)
    }

    /// A literal path is compared whole, in matching and in explanations alike: its decoded
    /// `%2F` is a character of the path, not a separator.
    @Test func aNearMissOnALiteralPathNamesOnlyWhatDiffers() {
        let set = StubSet([makeStub("slash", "GET", "/files/a%2Fb"), makeStub("other", "GET", "/elsewhere")])
        #expect(set.match(StubRequest(method: "GET", path: "/files/a/b")).matched?.stub.name == "slash")
        guard case .unmatched(let report) = set.match(StubRequest(method: "PUT", path: "/files/a/b")) else {
            Issue.record("expected no match")
            return
        }
        #expect(report.nearMisses.first?.stub.name == "slash")
        #expect(report.nearMisses.first?.differences == [.method(expected: "GET", actual: "PUT")])
    }

    @Test func segmentsAtTheEdgesOfAPath() {
        let set = StubSet([
            makeStub("root", "GET", "/"),
            makeStub("child", "GET", "/a/{x}"),
            makeStub("inner", "GET", "/a/{x}/b"),
            makeStub("under b", "GET", "/b/**"),
        ])
        #expect(set.match(StubRequest(method: "GET", path: "/")).matched?.stub.name == "root")
        #expect(set.match(StubRequest(method: "GET", path: "/a/1")).matched?.pathParameters == ["x": "1"])
        // A variable never binds an empty segment: not a trailing slash, not a doubled one.
        #expect(set.match(StubRequest(method: "GET", path: "/a/")).matched == nil)
        #expect(set.match(StubRequest(method: "GET", path: "/a//b")).matched == nil)
        #expect(set.match(StubRequest(method: "GET", path: "/a/1/b")).matched?.stub.name == "inner")
        #expect(set.match(StubRequest(method: "GET", path: "/b/")).matched?.stub.name == "under b")
        #expect(set.match(StubRequest(method: "GET", path: "/b/c/d/e")).matched?.stub.name == "under b")
        #expect(set.match(StubRequest(method: "GET", path: "/b")).matched?.stub.name == "under b")
        #expect(set.match(StubRequest(method: "GET", path: "/c")).matched == nil)
    }

    /// Thousands of keys in the index (literal paths, shared prefixes, one path with several
    /// methods): every stub is found by its own request, and near-identical paths are not confused.
    @Test func everyStubOfALargeMixedSetIsFoundByItsOwnRequest() {
        var stubs: [Stub] = []
        var requests: [(StubRequest, String, [String: String])] = []
        for index in 0..<3000 {
            let group = index % 37
            stubs.append(makeStub("literal \(index)", "GET", "/g\(group)/items/\(index)"))
            requests.append((StubRequest(method: "GET", path: "/g\(group)/items/\(index)"), "literal \(index)", [:]))
            if index % 10 == 0 {
                stubs.append(makeStub("delete \(index)", "DELETE", "/g\(group)/items/\(index)"))
                requests.append((StubRequest(method: "DELETE", path: "/g\(group)/items/\(index)"), "delete \(index)", [:]))
            }
            if index % 7 == 0 {
                stubs.append(makeStub("template \(index)", "GET", "/g\(group)/t\(index)/{id}/parts/{part}"))
                requests.append((StubRequest(method: "GET", path: "/g\(group)/t\(index)/x\(index)/parts/p"), "template \(index)", ["id": "x\(index)", "part": "p"]))
            }
        }
        let set = StubSet(stubs.shuffled())
        for (request, name, parameters) in requests {
            let matched = set.match(request).matched
            #expect(matched?.stub.name == name, "\(request.method) \(request.path)")
            #expect(matched?.pathParameters == parameters)
        }
        #expect(set.match(StubRequest(method: "GET", path: "/g1/items/10")).matched == nil)
        #expect(set.match(StubRequest(method: "GET", path: "/g0/items/370")).matched?.stub.name == "literal 370")
        #expect(set.match(StubRequest(method: "PUT", path: "/g0/items/370")).matched == nil)
        #expect(set.match(StubRequest(method: "GET", path: "/g0/t7/x/parts")).matched == nil)
    }

    @Test func emptySetSaysSo() {
        guard case .unmatched(let report) = StubSet.empty.match(StubRequest(method: "GET", path: "/")) else {
            Issue.record("expected no match")
            return
        }
        #expect(report.description == "No stub matches GET /: the stub set is empty.")
    }

    @Test func largeSetsFindTheRightStub() {
        var stubs: [Stub] = []
        for index in 0..<100_000 {
            stubs.append(makeStub("s\(index)", "GET", "/r\(index % 1000)/items/\(index)"))
        }
        stubs.append(makeStub("template", "GET", "/r7/things/{id}"))
        let set = StubSet(stubs)
        #expect(set.match(StubRequest(method: "GET", path: "/r42/items/99042")).matched?.stub.name == "s99042")
        #expect(set.match(StubRequest(method: "GET", path: "/r7/things/x")).matched?.stub.name == "template")
        #expect(set.match(StubRequest(method: "GET", path: "/r42/items/99043")).matched == nil)
    }
}

@Suite struct StubResponseTests {
    @Test func setCookieAndHeadersForSending() throws {
        let expires = try #require(HTTPDate.parse("Sat, 16-Nov-2013 15:00:00 GMT"))
        let cookie = StubCookie(name: "C1", value: "v", path: "/", domain: ".example.com", secure: true, httpOnly: true, expires: expires, maxAge: 60, sameSite: .lax)
        #expect(cookie.setCookieValue == "C1=v; Expires=Sat, 16 Nov 2013 15:00:00 GMT; Max-Age=60; Domain=.example.com; Path=/; Secure; HttpOnly; SameSite=Lax")
        let response = StubResponse(
            headers: [HTTPHeader(name: "Content-Type", value: "text/plain"), HTTPHeader(name: "content-length", value: "50")],
            cookies: [cookie, StubCookie(name: "C2", value: "w")]
        )
        #expect(response.headersForSending.map(\.name) == ["Content-Type", "Set-Cookie", "Set-Cookie"])
        #expect(response.headersForSending.values(named: "set-cookie").last == "C2=w")
    }

    @Test(arguments: [
        "Sat, 16-Nov-2013 15:00:00 GMT", "Sat, 16 Nov 2013 15:00:00 GMT", "16-Nov-2013 15:00:00 GMT", "Sat, 16-Nov-13 15:00:00 GMT",
    ])
    func cookieDatesInBothFormats(text: String) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: 1_384_614_000))
    }

    @Test(arguments: ["", "tomorrow", "Sat, 31-Feb-2013 15:00:00 GMT", "Sat, 16-Nov-2013 25:00:00 GMT", "Sat, 16-Nov-2013 15:00:00 PST"])
    func invalidCookieDates(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}

@Suite struct StubValueTests {
    @Test func copiesAreIndependentValues() {
        let original = makeStub("movie", "GET", "/movies/{id}", priority: 1)
        var copy = original
        #expect(copy == original)
        #expect(copy.hashValue == original.hashValue)
        copy.name = "renamed"
        copy.priority = 5
        copy.response.status = 404
        #expect(original.name == "movie")
        #expect(original.priority == 1)
        #expect(original.response.status == 200)
        #expect(copy.name == "renamed" && copy.priority == 5 && copy.response.status == 404)
        #expect(copy != original)
        // Equal by value, not by identity: a stub rebuilt field by field equals the original.
        let rebuilt = Stub(
            id: original.id, name: original.name, description: original.description, request: original.request, response: original.response,
            priority: original.priority, source: original.source, scenario: original.scenario, sequence: original.sequence
        )
        #expect(rebuilt == original)
        #expect(Set([rebuilt, original]).count == 1)
    }

    @Test func aMatchCarriesTheStubsValue() {
        var stub = makeStub("movie", "GET", "/movies/{id}")
        let set = StubSet([stub])
        stub.name = "changed after the set was built"
        #expect(set.match(StubRequest(method: "GET", path: "/movies/1")).matched?.stub.name == "movie")
    }
}

@Suite struct MatchedStubTests {
    @Test func templateVariablesAreBoundFromTheMatchedPattern() throws {
        let set = StubSet([makeStub("item", "GET", "/carts/{cart}/items/{item}"), makeStub("literal", "GET", "/carts")])
        var matched = try #require(set.match(StubRequest(method: "GET", path: "/carts/AzCa3T/items/9")).matched)
        #expect(matched.pathParameters == ["cart": "AzCa3T", "item": "9"])
        // Equal to the same match with its values given explicitly.
        #expect(matched == MatchedStub(stub: matched.stub, pathParameters: ["cart": "AzCa3T", "item": "9"]))
        #expect(matched != MatchedStub(stub: matched.stub, pathParameters: ["cart": "other", "item": "9"]))
        // Changing the stub afterwards does not change what its pattern bound.
        matched.stub.request.path = try PathPattern.parse("/{everything}").get()
        #expect(matched.pathParameters == ["cart": "AzCa3T", "item": "9"])
        matched.pathParameters["item"] = "10"
        #expect(matched.pathParameters == ["cart": "AzCa3T", "item": "10"])
        #expect(set.match(StubRequest(method: "GET", path: "/carts")).matched?.pathParameters == [:])
    }

    @Test func theMatchKnowsItsPositionInTheSetUntilTheStubChanges() throws {
        let set = StubSet([makeStub("a", "GET", "/a"), makeStub("b", "GET", "/b/{id}")])
        var matched = try #require(set.match(StubRequest(method: "GET", path: "/b/1")).matched)
        #expect(matched.indexInSet == 1)
        #expect(set.match(StubRequest(method: "GET", path: "/a")).matched?.indexInSet == 0)
        matched.stub.name = "changed"
        #expect(matched.indexInSet == nil)
        #expect(MatchedStub(stub: set.stubs[0]).indexInSet == nil)
    }
}
