import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckJSON
import APICheckModel
import APICheckReportFormats
import APICheckSchema
import APICheckSpool
import APICheckVerifier
import Foundation
import Testing

/// `body-schema`: bodies against their media type's profile, configured or named by the API.
@Suite struct BodySchemaTests {
    static let movieType = "application/vnd.acme.movie+json"
    static let movieSchema = #"""
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["title", "year"],
         "properties": {"title": {"type": "string"}, "year": {"type": "integer", "minimum": 1888}}}
        """#

    static func stub(_ path: String, _ body: String, type: String = "application/json", headers: [HTTPHeader] = []) -> Stub {
        Stub(
            id: path, name: path, request: RequestPattern(method: "GET", path: (try? PathPattern.parse(path).get()) ?? .anything),
            response: StubResponse(status: 200, headers: [HTTPHeader(name: "Content-Type", value: type)] + headers, body: .bytes(Data(body.utf8))),
            source: SourceLocation(path: "movies.json"))
    }

    /// A root listing `count` movies (declared as the movie type), each with a string year when `badYear`.
    static func movies(count: Int, badYear: (Int) -> Bool, servedType: String = "application/json") -> StubSet {
        let links = (0..<count).map { #"{"rel":"movie","href":"/movies/\#($0)","type":"vnd.acme.movie+json"}"# }.joined(separator: ",")
        var stubs = [stub("/", #"{"links":[\#(links)]}"#)]
        for index in 0..<count {
            let year = badYear(index) ? #""1999""# : "1999"
            stubs.append(stub("/movies/\(index)", #"{"title":"M\#(index)","year":\#(year)}"#, type: servedType))
        }
        return StubSet(stubs)
    }

    static func profiles() throws -> MediaTypeProfiles {
        var profiles = MediaTypeProfiles()
        let schema = try JSONSchema(JSONParser().parse(Array(movieSchema.utf8)))
        try profiles.add(MediaTypeProfile(key: movieType, schemaName: "schemas/movie.json", schema: schema))
        return profiles
    }

    static func crawl(_ stubs: StubSet, profiles: MediaTypeProfiles = MediaTypeProfiles(), discover: Bool = true, concurrency: Int = 4) async -> CrawlReport {
        var options = CrawlOptions(root: URL(string: "http://localhost:3000/")!, concurrency: concurrency)
        options.profiles = profiles
        options.discoversProfiles = discover
        return await Crawler(fetcher: StubSetFetcher(stubs: stubs), options: options).run()
    }

    @Test func aWrongFieldInEveryMovieIsOneDefectWithACount() async throws {
        let report = await Self.crawl(Self.movies(count: 12, badYear: { $0 % 2 == 0 }), profiles: try Self.profiles())
        let findings = report.findings.filter { $0.rule == .bodySchema }
        #expect(findings.count == 6)
        #expect(findings.allSatisfy { $0.sourcePointer == "/year" && $0.expected == "schemas/movie.json#/properties/year/type" })
        #expect(findings.first?.declaredType == "vnd.acme.movie+json")
        let defects = report.defects.filter { $0.rule == .bodySchema }
        #expect(defects.count == 1)
        #expect(defects.first?.occurrences.count == 6)
        #expect(report.exitCode == .contractViolations)
    }

    @Test func theServedTypesProfileAppliesWithoutADeclaredType() async throws {
        // The root's links declare nothing here: the movie is served as its vendor type.
        var stubs = Self.movies(count: 2, badYear: { _ in true }, servedType: Self.movieType).stubs
        stubs[0] = Self.stub("/", #"{"links":[{"rel":"movie","href":"/movies/0"},{"rel":"movie","href":"/movies/1"}]}"#)
        let report = await Self.crawl(StubSet(stubs), profiles: try Self.profiles())
        #expect(report.findings.filter { $0.rule == .bodySchema }.count == 2)
    }

    @Test func validBodiesAndUnprofiledTypesHaveNoFinding() async throws {
        let report = await Self.crawl(Self.movies(count: 5, badYear: { _ in false }), profiles: try Self.profiles())
        #expect(report.findings.filter { $0.rule == .bodySchema }.isEmpty)
        let unprofiled = await Self.crawl(Self.movies(count: 5, badYear: { _ in true }))
        #expect(unprofiled.findings.filter { $0.rule == .bodySchema }.isEmpty)
    }

    @Test func theReportIsTheSameAtAnyConcurrency() async throws {
        let stubs = Self.movies(count: 40, badYear: { $0 % 3 == 0 })
        let one = await Self.crawl(stubs, profiles: try Self.profiles(), concurrency: 1)
        let many = await Self.crawl(stubs, profiles: try Self.profiles(), concurrency: 16)
        #expect(one.findings == many.findings)
    }

    // MARK: Discovery

    static func describedAPI(link: String, schemaType: String = "application/schema+json", schema: String = movieSchema) -> StubSet {
        var stubs = [Self.stub("/", #"{"links":[{"rel":"movie","href":"/movies/1"},{"rel":"movie","href":"/movies/2"}]}"#)]
        for index in 1...2 {
            stubs.append(Self.stub("/movies/\(index)", #"{"title":"M","year":"old"}"#, headers: [HTTPHeader(name: "Link", value: link)]))
        }
        stubs.append(Self.stub("/schemas/movie", schema, type: schemaType))
        return StubSet(stubs)
    }

    @Test func aDescribedbyLinkNamesTheProfileAndItIsFetchedOnce() async throws {
        let stubs = Self.describedAPI(link: #"</schemas/movie>; rel="describedby""#)
        // The describedby link is a link like any other (the crawl follows it once); two
        // resources name the schema, and discovery adds one request, not two.
        func schemaRequests(discover: Bool) async -> (Int, CrawlReport) {
            let fetcher = StubSetFetcher(stubs: stubs)
            var options = CrawlOptions(root: URL(string: "http://localhost:3000/")!, concurrency: 4)
            options.discoversProfiles = discover
            let report = await Crawler(fetcher: fetcher, options: options).run()
            return (fetcher.responder.journal.requests(method: "GET", path: "/schemas/movie").count, report)
        }
        let (with, report) = await schemaRequests(discover: true)
        let (without, _) = await schemaRequests(discover: false)
        let findings = report.findings.filter { $0.rule == .bodySchema }
        #expect(findings.count == 2)
        #expect(findings.first?.expected == "http://localhost:3000/schemas/movie#/properties/year/type")
        #expect(with == without + 1)
    }

    @Test func aContentTypesProfileParameterNamesTheSchema() async throws {
        let stubs = StubSet([
            Self.stub("/", #"{"links":[{"rel":"movie","href":"/movies/1"}]}"#),
            Self.stub("/movies/1", #"{"title":"M","year":"old"}"#, type: #"application/json; Profile="http://localhost:3000/schemas/movie""#),
            Self.stub("/schemas/movie", Self.movieSchema, type: "application/schema+json"),
        ])
        let report = await Self.crawl(stubs)
        #expect(report.findings.filter { $0.rule == .bodySchema }.map(\.sourcePointer) == ["/year"], "\(report.findings.map(\.message))")
    }

    @Test func aHALProfileAttributeNamesTheTargetsProfile() async throws {
        let stubs = StubSet([
            Self.stub("/", #"{"_links": {"self": {"href": "/"}, "movie": {"href": "/movies/1", "profile": "/schemas/movie"}}}"#, type: "application/hal+json"),
            Self.stub("/movies/1", #"{"_links": {"self": {"href": "/movies/1"}}, "title": "M", "year": "old"}"#, type: "application/hal+json"),
            Self.stub("/schemas/movie", Self.movieSchema, type: "application/schema+json"),
        ])
        let report = await Self.crawl(stubs)
        let findings = report.findings.filter { $0.rule == .bodySchema }
        #expect(findings.map(\.sourcePointer) == ["/year"], "\(report.findings.map(\.message))")
        #expect(findings.first?.expected == "http://localhost:3000/schemas/movie#/properties/year/type")
    }

    @Test func aSchemaDocumentIsNotReadForLinks() async throws {
        // A profile that describes HAL links: `_links`, `required: ["self"]`, `type: object`.
        let schema = #"""
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
             "properties": {"_links": {"type": "object", "required": ["self"], "properties": {"self": {"type": "object"}}}}}
            """#
        let report = await Self.crawl(Self.describedAPI(link: #"</schemas/movie>; rel="describedby""#, schema: schema))
        // No link read from the schema: no broken `required`/`type` links, no HAL shape notes.
        let fromSchema = report.findings.filter { [.linkResolves, .formatShape, .templateValid].contains($0.rule) }
        #expect(fromSchema.isEmpty, "\(fromSchema.map(\.message))")
        #expect(report.statistics.resourcesFetched == 4)
    }

    @Test func withoutDiscoveryOrForADocumentThatIsNoSchemaNothingIsChecked() async throws {
        let off = await Self.crawl(Self.describedAPI(link: #"</schemas/movie>; rel="describedby""#), discover: false)
        #expect(off.findings.filter { $0.rule == .bodySchema }.isEmpty)
        // An ALPS-style profile document, served as plain JSON without $schema, is not a contract.
        let alps = await Self.crawl(Self.describedAPI(link: #"</schemas/movie>; rel="profile""#, schemaType: "application/json", schema: #"{"alps":{"version":"1.0"}}"#))
        #expect(alps.findings.filter { $0.rule == .bodySchema }.isEmpty)
    }

    @Test func aNamedSchemaThatIsBrokenIsOneFindingPerPlace() async throws {
        let report = await Self.crawl(Self.describedAPI(link: #"</schemas/movie>; rel="describedby""#, schema: #"{"type": 12}"#))
        let findings = report.findings.filter { $0.rule == .bodySchema }
        #expect(findings.count == 2)
        #expect(findings.allSatisfy { $0.message.contains("cannot be used") })
        #expect(report.defects.filter { $0.rule == .bodySchema }.count == 1)
    }

    @Test func aProfileOnAnotherHostIsNotFetched() async throws {
        let report = await Self.crawl(Self.describedAPI(link: #"<http://elsewhere.example/schemas/movie>; rel="describedby""#))
        #expect(report.findings.filter { $0.rule == .bodySchema }.isEmpty)
        #expect(report.statistics.requests == 3)
    }

    // MARK: Relevance

    @Test func branchErrorsExplainedContainersAndUnevaluatedRepeatsAreLeftOut() throws {
        let schema = try JSONSchema(JSONParser().parse(Array(#"""
            {"properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "b": {"properties": {"c": {"type": "string"}}}}}
            """#.utf8)))
        let profile = MediaTypeProfile(key: "application/json", schemaName: "s.json", schema: schema)
        let violations = BodySchemaRule.violations(of: try JSONParser().parseValue(Array(#"{"a": true, "b": {"c": 1}}"#.utf8)), profile: profile)
        #expect(Set(violations.map(\.instanceLocation)) == ["/a", "/b/c"])
        #expect(violations.contains { $0.keyword == "s.json#/properties/a/anyOf" })
        #expect(!violations.contains { $0.keyword.contains("/anyOf/0") })
        #expect(!violations.contains { $0.keyword == "s.json#/properties/b/properties" })
        // A property that failed in a $ref is also unevaluated by 2020-12's rules: said once.
        let closed = try JSONSchema(JSONParser().parse(Array(##"""
            {"$ref": "#/$defs/base", "properties": {"year": {"type": "integer"}}, "unevaluatedProperties": false,
             "$defs": {"base": {"properties": {"title": {"type": "string", "pattern": "^[A-Z]"}}}}}
            """##.utf8)))
        let closedProfile = MediaTypeProfile(key: "application/json", schemaName: "m.json", schema: closed)
        let found = BodySchemaRule.violations(of: try JSONParser().parseValue(Array(#"{"title": "heat", "year": 1, "extra": 2}"#.utf8)), profile: closedProfile)
        #expect(found.map(\.keyword) == ["m.json#/$ref/properties/title/pattern"])
        // Fixed, the object's one real extra member shows.
        let fixed = BodySchemaRule.violations(of: try JSONParser().parseValue(Array(#"{"title": "Heat", "year": 1, "extra": 2}"#.utf8)), profile: closedProfile)
        #expect(fixed.map(\.keyword) == ["m.json#/unevaluatedProperties"])
        #expect(fixed.first?.instanceLocation == "/extra")
    }
}
