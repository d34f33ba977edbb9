import APICheckModel
import APICheckStubFiles
import Foundation
import Testing

/// The meaning PEWire-Control and PESimu-Select gave their files, pinned on the project's own fixtures.
@Suite struct StubLoaderCompatibilityTests {
    @Test func pewireResponseWithHeadersCookiesAndBody() throws {
        let result = StubLoader().load([Fixtures.folder + "/pewire"])
        #expect(result.errors.isEmpty, "\(result.errors)")
        let stub = try #require(result.stubSet.stubs.first { $0.name == "users with cookies" })
        #expect(stub.description == "Lists accounts and sets two cookies.")
        #expect(stub.request.method == "GET")
        #expect(stub.request.path.text == "/accounts")
        #expect(stub.request.origin == nil, "PEWire matched on method and path only")
        #expect(stub.response.status == 200)
        #expect(stub.response.headers == [
            HTTPHeader(name: "Expires", value: "Mon, 04 Mar 2024 10:00:00 GMT"),
            HTTPHeader(name: "Cache-Control", value: "max-age=0"),
            HTTPHeader(name: "Content-Type", value: "application/xml"),
            HTTPHeader(name: "Content-Length", value: "99"),
            HTTPHeader(name: "Content-Language", value: "de-CH"),
        ])
        #expect(stub.response.cookies.count == 2)
        let session = stub.response.cookies[0]
        #expect(session.name == "session" && session.value == "s-123" && session.path == "/" && session.domain == ".example.org")
        #expect(session.secure)
        #expect(session.expires == HTTPDate.parse("Wed, 20 Mar 2024 08:30:00 GMT"))
        let theme = stub.response.cookies[1]
        #expect(!theme.secure, "only secure=\"true\" is secure")
        #expect(theme.expires == nil)
        #expect(stub.response.body == .bytes(Data("<accounts><account id=\"7\"/></accounts>".utf8)))
        #expect(stub.source.line == 5 && stub.source.column == 1)
        // The stale Content-Length is reported, and transports send the real one.
        #expect(result.warnings.contains { $0.message.contains("Content-Length 99") })
        #expect(stub.response.headersForSending.value(named: "Content-Length") == nil)
    }

    @Test func pewireBodyFileResolvesAgainstTheStubRootByteExact() throws {
        let result = StubLoader().load([Fixtures.folder + "/pewire"])
        let stub = try #require(result.stubSet.stubs.first { $0.name == "logo" })
        guard case .file(let file) = stub.response.body else {
            Issue.record("expected a body file, got \(stub.response.body)")
            return
        }
        #expect(file.declaredPath == "images/logo.bin")
        let expected = Data((0..<256).map { UInt8($0) } + [0xFF, 0xD8, 0xFF, 0x00, 0x80, 0xC3, 0x28])
        #expect(try Data(contentsOf: file.url) == expected)
        #expect(file.byteCount == expected.count)
        #expect(result.stubSet.match(StubRequest(method: "GET", path: "/accounts/7/logo.bin")).matched?.stub.name == "logo")
    }

    @Test func aSingleFileTakesItsRootFromTheOption() throws {
        let file = Fixtures.folder + "/pewire/responses/logo.xml"
        let alone = StubLoader().load([file])
        #expect(alone.errors.count == 1)
        #expect(alone.errors.first?.message.contains("not found") == true)
        let rooted = StubLoader(options: StubLoadOptions(root: Fixtures.folder + "/pewire")).load([file])
        #expect(rooted.errors.isEmpty)
        #expect(rooted.stubSet.count == 1)
    }

    @Test func pesimuScenarioTreeOffersOneScenarioPerUseCase() throws {
        let result = StubLoader().load([Fixtures.folder + "/scenarios"])
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.stubSet.count == 5)
        let signIn = StubRequest(method: "POST", path: "/session")
        let byDefault = try #require(result.stubSet.match(signIn).matched)
        #expect(byDefault.stub.name == "Account locked", "without a selection the first scenario in file order answers")
        #expect(byDefault.stub.scenario == ScenarioTag(useCase: "welcome-screen/sign-in", name: "fail-locked"))
        #expect(byDefault.stub.response.status == 423)
        let selected = result.stubSet.match(signIn, scenarios: ["welcome-screen/sign-in": "success-user-1"]).matched
        #expect(selected?.stub.response.status == 200)
        // Selecting the failing registration scenario takes the successful one (another path) out.
        let register: ScenarioSelection = ["welcome-screen/register": "server-error"]
        #expect(result.stubSet.match(StubRequest(method: "GET", path: "/accounts"), scenarios: register).matched == nil)
        #expect(result.stubSet.match(StubRequest(method: "GET", path: "/testing"), scenarios: register).matched?.stub.response.status == 500)
        // Empty PEWire bodies, in all three spellings, are empty.
        for stub in result.stubSet.stubs where stub.name != "Map" {
            #expect(stub.response.body == .empty, "\(stub.name)")
        }
    }

    @Test func xmlAndJSONOfTheSameStubsAreEqualModels() throws {
        let xml = StubLoader().load([Fixtures.folder + "/equivalence/rent.xml"])
        let json = StubLoader().load([Fixtures.folder + "/equivalence/rent.json"])
        #expect(xml.diagnostics.isEmpty, "\(xml.diagnostics)")
        #expect(json.diagnostics.isEmpty, "\(json.diagnostics)")
        #expect(xml.stubSet.count == 2)
        func normalised(_ stub: Stub) -> Stub {
            var copy = stub
            copy.id = ""
            copy.source = SourceLocation(path: "")
            copy.scenario = nil
            return copy
        }
        #expect(xml.stubSet.stubs.map(normalised) == json.stubSet.stubs.map(normalised))
        let rent = try #require(xml.stubSet.stubs.first)
        #expect(rent.response.latency == StubLatency(request: 0.25, response: 1.5))
        #expect(rent.request.path.kind == .template)
        #expect(rent.request.query == [ValueConstraint(name: "source", value: "app"), ValueConstraint(name: "mode", value: "fast")])
        #expect(rent.response.body == .bytes(Data(#"{"count":2,"items":[{"id":"pLDhp"},{"id":"iBZQ9","rating":8.8}],"ok":true,"note":null}"#.utf8)))
        #expect(xml.stubSet.stubs[1].response.failure == .networkConnectionLost)
    }

    @Test func theFullyConstrainedStubMatchesItsRequest() throws {
        let set = StubLoader().load([Fixtures.folder + "/equivalence/rent.json"]).stubSet
        var request = StubRequest(
            method: "PUT",
            url: try #require(URL(string: "http://localhost:3000/cart/AzCa3T?source=app&mode=fast")),
            headers: [HTTPHeader(name: "Accept", value: "application/json"), HTTPHeader(name: "X-Trace", value: "abc")],
            body: Data(#"{"movieId":"iBZQ9"}"#.utf8)
        )
        let matched = try #require(set.match(request).matched)
        #expect(matched.stub.name == "rent Inception")
        #expect(matched.pathParameters == ["cartId": "AzCa3T"])
        request.port = 3001
        #expect(set.match(request).matched == nil)
        #expect(set.match(StubRequest(method: "DELETE", path: "/cart/AzCa3T/items/1")).matched?.stub.name == "offline")
    }
}
