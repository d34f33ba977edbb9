import APICheckJSON
import APICheckModel
import APICheckStubFiles
import Foundation
import Testing

/// Hostile and edge-case stub files found in review: each used to crash, hang, mislead or lose a file.
@Suite struct ReviewRegressionTests {
    @Test func aCookieYearThatWouldOverflowIsAWarningNotACrash() throws {
        let folder = try TemporaryFolder()
        try folder.write("c.xml", Fixtures.stub(xml: #"<cookies><cookie name="a" value="b" expires="Sat, 16-Nov-300000000000 15:00:00 GMT"/></cookies>"#))
        try folder.write("c.json", #"{"request": {"path": "/j"}, "response": {"status": 200, "cookies": [{"name": "a", "expires": "Sat, 16-Nov-9223372036854775807 15:00:00 GMT"}]}}"#)
        let result = StubLoader().load([folder.path])
        #expect(result.errors.isEmpty)
        #expect(result.warnings.count == 2)
        #expect(result.stubSet.stubs.allSatisfy { $0.response.cookies.first?.expires == nil })
    }

    @Test func adversarialGlobsMatchInPolynomialTime() throws {
        let stars = try PathPattern.parse("/x/*a*a*a*a*a*a*a*a*a*a*a*ab").get()
        let doubleStars = try PathPattern.parse("/**/a/**/a/**/a/**/a/**/z").get()
        let set = StubSet([
            Stub(id: "s", name: "stars", request: RequestPattern(method: "GET", path: stars), response: StubResponse(), source: SourceLocation(path: "s")),
            Stub(id: "d", name: "double stars", request: RequestPattern(method: "GET", path: doubleStars), response: StubResponse(), source: SourceLocation(path: "d")),
        ])
        #expect(set.match(StubRequest(method: "GET", path: "/x/" + String(repeating: "a", count: 400))).matched == nil)
        #expect(set.match(StubRequest(method: "GET", path: "/x/" + String(repeating: "a", count: 40) + "b")).matched?.stub.name == "stars")
        let deep = "/" + Array(repeating: "a", count: 300).joined(separator: "/")
        #expect(set.match(StubRequest(method: "GET", path: deep)).matched == nil)
        #expect(set.match(StubRequest(method: "GET", path: deep + "/z")).matched?.stub.name == "double stars")
    }

    @Test func oversizedPatternsAreRefused() {
        #expect(throws: PatternError.self) { try PathPattern.parse("/" + String(repeating: "a*", count: 100_000)).get() }
        #expect(throws: PatternError.self) { try PathPattern.parse(String(repeating: "/a", count: 100)).get() }
    }

    @Test func onlyAStarAloneMatchesEverything() throws {
        for text in ["*.json", "**/x", "*/movies"] {
            #expect(throws: PatternError.self, "\(text)") { try PathPattern.parse(text).get() }
        }
        #expect(try PathPattern.parse("*").get().kind == .glob)
    }

    @Test func percentEscapesInStubPathsAreLiteralCharacters() throws {
        let folder = try TemporaryFolder()
        try folder.write("s.xml", Fixtures.stub(xml: "<body>x</body>", annotation: #"<annotation uri-path="/files/%7Bid%7D/%2A"/>"#))
        let set = StubLoader().load([folder.path]).stubSet
        #expect(set.stubs.first?.request.path.kind == .literal)
        #expect(set.match(StubRequest(method: "GET", target: "/files/%7Bid%7D/%2A")).matched != nil)
        #expect(set.match(StubRequest(method: "GET", target: "/files/7/x")).matched == nil)
    }

    @Test func targetsWithDoubleSlashesAreNotHosts() {
        let request = StubRequest(method: "GET", target: "//movies/1?a=b#top")
        #expect(request.path == "//movies/1")
        #expect(request.query == [StubRequest.QueryItem(name: "a", value: "b")])
    }

    @Test func aOneLineDocumentLoadsInLinearTimeWithRightColumns() throws {
        let folder = try TemporaryFolder()
        let stubs = (0..<20_000).map { #"<http-response statusCode="200"><annotation uri-path="/s\#($0)"/></http-response>"# }.joined()
        try folder.write("one-line.xml", "<http-responses>" + stubs + "</http-responses>")
        try folder.write("columns.xml", #"<http-response statusCode="200"><annotation uri-path="/c"/><headers><header name="A"/><header name="B" value="2"/></headers></http-response>"#)
        let result = StubLoader().load([folder.path])
        #expect(result.stubSet.count == 20_000)
        let error = try #require(result.errors.first)
        #expect(error.message.contains("<header name=\"A\"> needs a value"))
        #expect(error.location.column == 69, "the first <header>, not the second")
    }

    @Test func byteOrderMarksAreNotColumns() throws {
        let folder = try TemporaryFolder()
        try folder.write("bom.xml", Data([0xEF, 0xBB, 0xBF]) + Data(#"<http-response statusCode="x"><annotation uri-path="/"/></http-response>"#.utf8))
        try folder.write("bom.json", Data([0xEF, 0xBB, 0xBF]) + Data(#"{"request": 5}"#.utf8))
        let errors = StubLoader().load([folder.path]).errors
        #expect(errors.filter { $0.location.path.hasSuffix("bom.json") }.map(\.location.column).contains(13), "\(errors)")
        #expect(errors.first { $0.location.path.hasSuffix("bom.xml") }?.location.column == 16)
    }

    @Test func aBrokenFileCannotHideAGoodStubFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("good.xml", Fixtures.stub(xml: "<body>x</body>", annotation: #"<annotation name="good" uri-path="/good"/>"#))
        try folder.write("bad.xml", Fixtures.stub(xml: #"<body-file path="good.xml"/>"#, statusCode: "BROKEN"))
        let result = StubLoader().load([folder.path])
        #expect(result.stubSet.stubs.map(\.name) == ["good"])
        #expect(result.errors.count == 1)
    }

    @Test func aTruncatedWalkIsReported() throws {
        let folder = try TemporaryFolder()
        for index in 0..<20 { try folder.write("img\(index).png", "x") }
        for index in 0..<3 { try folder.write("z\(index).xml", Fixtures.stub(xml: "<body/>")) }
        let result = StubLoader(options: StubLoadOptions(maximumFileCount: 3)).load([folder.path])
        #expect(result.errors.contains { $0.message.contains("only the first were read") })
    }

    @Test func symlinkedFoldersAreNotFollowedButSaySo() throws {
        let parent = try TemporaryFolder()
        try parent.write("elsewhere/s.xml", Fixtures.stub(xml: "<body/>"))
        try parent.write("stubs/good.xml", Fixtures.stub(xml: "<body/>"))
        try FileManager.default.createSymbolicLink(atPath: parent.path + "/stubs/linked", withDestinationPath: parent.path + "/elsewhere")
        let result = StubLoader().load([parent.path + "/stubs"])
        #expect(result.stubSet.count == 1)
        #expect(result.warnings.contains { $0.message.contains("symlinked folder is not followed") })
    }

    @Test func nearMissesNeverRepeatAStub() {
        var stubs = (0..<(StubSet.nearMissSearchLimit + 10)).map {
            Stub(id: "\($0)", name: "s\($0)", request: RequestPattern(method: "GET", path: (try? PathPattern.parse("/s/\($0)").get())!), response: StubResponse(), source: SourceLocation(path: "s"))
        }
        stubs.append(Stub(id: "t", name: "target", request: RequestPattern(method: "PUT", path: (try? PathPattern.parse("/t").get())!), response: StubResponse(), source: SourceLocation(path: "t")))
        guard case .unmatched(let report) = StubSet(stubs).match(StubRequest(method: "GET", path: "/t")) else {
            Issue.record("expected no match")
            return
        }
        #expect(Set(report.nearMisses.map(\.stub.id)).count == report.nearMisses.count)
        #expect(report.nearMisses.first?.stub.name == "target")
    }

    @Test func jsonIntegersAndPortsFollowTheSchema() throws {
        let folder = try TemporaryFolder()
        try folder.write("ok.json", #"{"request": {"path": "/a"}, "response": {"status": 200.0}}"#)
        try folder.write("port.json", #"{"request": {"path": "/b", "matchHost": true, "port": 99999}, "response": {"status": 200}}"#)
        let result = StubLoader().load([folder.path])
        #expect(result.stubSet.stubs.map(\.response.status) == [200])
        #expect(result.errors.first?.message.contains("not a TCP port") == true)
    }
}
