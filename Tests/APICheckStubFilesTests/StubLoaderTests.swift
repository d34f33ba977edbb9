import APICheckJSON
import APICheckModel
@testable import APICheckStubFiles
import Foundation
import Testing

@Suite struct StubLoaderTests {
    @Test func loadOrderIsDeterministicAndConcurrencyDoesNotChangeIt() throws {
        let folder = try TemporaryFolder()
        for index in (0..<150).shuffled() {
            let nested = index % 3 == 0 ? "b/" : (index % 3 == 1 ? "a/" : "")
            try folder.write("\(nested)s\(index).xml", Fixtures.stub(xml: "<body>\(index)</body>", annotation: "<annotation name=\"n\(index)\" uri-path=\"/same\"/>"))
        }
        let serial = StubLoader(options: StubLoadOptions(concurrent: false)).load([folder.path])
        let parallel = StubLoader(options: StubLoadOptions(concurrent: true)).load([folder.path])
        #expect(serial.stubSet.count == 150)
        #expect(serial.stubSet.stubs.map(\.id) == parallel.stubSet.stubs.map(\.id))
        let relative = serial.files.map { String($0.path.dropFirst(folder.path.count + 1)) }
        #expect(relative == relative.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(relative.first == "a/s1.xml")
        // Equal stubs: the first in load order answers.
        #expect(serial.stubSet.match(StubRequest(method: "GET", path: "/same")).matched?.stub.name == "n1")
    }

    /// Counts where ceiling-sized chunks ran past the end (100 files on 2 cores: 16 chunks of 7,
    /// the last starting at 105) and crashed the loader.
    @Test(arguments: [64, 65, 100, 101, 127, 150, 1000])
    func concurrentLoadingReadsEveryFileWhateverTheCount(count: Int) throws {
        let folder = try TemporaryFolder()
        for index in 0..<count {
            try folder.write("s\(index).xml", Fixtures.stub(xml: "<body>\(index)</body>", annotation: "<annotation name=\"n\(index)\" uri-path=\"/s/\(index)\"/>"))
        }
        let loaded = StubLoader(options: StubLoadOptions(concurrent: true)).load([folder.path])
        #expect(loaded.stubSet.count == count)
        #expect(Set(loaded.stubSet.stubs.map(\.name)).count == count)
    }

    /// Files decoded on one thread share one copy of a repeated header value (a generated
    /// 100,000-file set held a heap string per file), and values stay what the files say.
    @Test func repeatedHeaderValuesAreStoredOnce() throws {
        let folder = try TemporaryFolder()
        for index in 0..<3 {
            try folder.write(
                "s\(index).json",
                #"{"request": {"path": "/s/\#(index)"}, "response": {"status": 200, "headers": {"Content-Type": "application/hal+json; charset=utf-8", "ETag": "\"an-etag-of-file-\#(index)\""}}}"#)
        }
        let loaded = StubLoader(options: StubLoadOptions(concurrent: false)).load([folder.path])
        let headers = loaded.stubSet.stubs.map(\.response.headers)
        #expect(headers.map { $0.first { $0.name == "ETag" }?.value } == (0..<3).map { "\"an-etag-of-file-\($0)\"" })
        var types = headers.compactMap { $0.first { $0.name == "Content-Type" }?.value }
        #expect(types == Array(repeating: "application/hal+json; charset=utf-8", count: 3))
        let storage = types.indices.map { types[$0].withUTF8 { $0.baseAddress } }
        #expect(Set(storage).count == 1)

        // Equal as Swift strings (canonically equivalent), different bytes: each stub keeps its own.
        let folder2 = try TemporaryFolder()
        let spellings = ["attachment; filename=caf\u{E9}.txt", "attachment; filename=cafe\u{301}.txt"]
        for (index, value) in spellings.enumerated() {
            try folder2.write("d\(index).json", #"{"request": {"path": "/d/\#(index)"}, "response": {"status": 200, "headers": {"Content-Disposition": "\#(value)"}}}"#)
        }
        let disposition = StubLoader(options: StubLoadOptions(concurrent: false)).load([folder2.path]).stubSet.stubs
            .sorted { $0.request.path.description < $1.request.path.description }
            .compactMap { $0.response.headers.first { $0.name == "Content-Disposition" }?.value }
        #expect(disposition.map { Array($0.utf8) } == spellings.map { Array($0.utf8) })

        let strings = RepeatedStrings()
        for index in 0..<5000 { _ = strings.shared("a value that never repeats \(index)") }
        #expect(strings.shared("a value seen once the set is full") == "a value seen once the set is full")
    }

    @Test func chunksSplitEveryCountExactlyOnce() {
        for count in 0...300 {
            for chunkCount in 1...max(1, min(count, 32)) {
                let ranges = (0..<chunkCount).map { StubLoader.chunk($0, of: chunkCount, splitting: count) }
                #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == count, "count \(count), \(chunkCount) chunks")
                #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
                if count >= chunkCount { #expect(ranges.allSatisfy { !$0.isEmpty && $0.count <= count / chunkCount + 1 }) }
            }
        }
    }

    @Test func referencedFilesAreAssetsNotStubs() throws {
        let folder = try TemporaryFolder()
        try folder.write("bodies/movie.json", #"{"id": "1msRby", "_links": []}"#)
        try folder.write("bodies/feed.xml", "<feed xmlns=\"http://www.w3.org/2005/Atom\"/>")
        try folder.write("movie.json", #"{"request": {"path": "/movie"}, "response": {"status": 200, "bodyFile": "bodies/movie.json"}}"#)
        try folder.write("feed.xml", Fixtures.stub(xml: #"<body-file path="bodies/feed.xml"/>"#))
        let result = StubLoader().load([folder.path])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.stubSet.count == 2)
        #expect(result.files.map { $0.path.hasSuffix("bodies/movie.json") } == [false, false])
    }

    @Test func templatesAndTheirVariables() throws {
        let folder = try TemporaryFolder()
        try folder.write("templates/movie.json.mustache", #"{"id":"{{request.pathParams.id}}","title":"{{title}}"}"#)
        try folder.write("movie.xml", Fixtures.stub(
            xml: #"<body-template path="templates/movie.json.mustache"><var name="title" value="Dune"/></body-template>"#,
            annotation: #"<annotation uri-path="/movies/{id}"/>"#
        ))
        try folder.write("movie.json", #"{"request": {"path": "/films/{id}"}, "response": {"status": 200, "template": {"path": "templates/movie.json.mustache", "variables": {"title": "Dune"}}}}"#)
        let result = StubLoader().load([folder.path])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let bodies = result.stubSet.stubs.map(\.response.body)
        guard case .template(let template) = bodies.first else {
            Issue.record("expected a template, got \(bodies)")
            return
        }
        #expect(template.variables == ["title": "Dune"])
        #expect(template.file.declaredPath == "templates/movie.json.mustache")
        #expect(bodies[0] == bodies[1])
    }

    @Test func sequencesInXMLAndJSONAreEqual() throws {
        let folder = try TemporaryFolder()
        try folder.write("job.xml", """
            <http-sequence after-last="fail">
              <http-response statusCode="202">
                <annotation name="job" uri-path="/jobs/{id}" request-method="GET">Polling.</annotation>
                <body>pending</body>
              </http-response>
              <http-response statusCode="200"><headers><header name="X-Done" value="1"/></headers><body>done</body></http-response>
            </http-sequence>
            """)
        try folder.write("job.json", """
            {"name": "job", "description": "Polling.", "request": {"method": "GET", "path": "/jobs/{id}"},
             "responses": [{"status": 202, "bodyText": "pending"}, {"status": 200, "headers": {"X-Done": "1"}, "bodyText": "done"}],
             "afterLast": "fail"}
            """)
        let result = StubLoader().load([folder.path])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let stubs = result.stubSet.stubs
        #expect(stubs.count == 2)
        #expect(stubs[0].sequence == stubs[1].sequence)
        #expect(stubs[0].sequence?.afterLast == .fail)
        #expect(stubs[0].response(forCall: 1)?.status == 200)
        #expect(stubs[0].response(forCall: 2) == nil)
        #expect(stubs[0].response == stubs[0].sequence?.responses.first)
    }

    @Test func badSequences() throws {
        let folder = try TemporaryFolder()
        try folder.write("a.xml", #"<http-sequence after-last="loop"><http-response statusCode="200"><annotation uri-path="/a"/></http-response></http-sequence>"#)
        try folder.write("b.xml", "<http-sequence/>")
        try folder.write("c.json", #"{"request": {"path": "/c"}, "responses": []}"#)
        try folder.write("d.json", #"{"request": {"path": "/d"}, "response": {"status": 200}, "responses": [{"status": 200}]}"#)
        let messages = StubLoader().load([folder.path]).errors.map(\.message)
        #expect(messages.contains { $0.contains("after-last \"loop\" must be repeat-last or fail") })
        #expect(messages.contains { $0.contains("needs at least one <http-response>") })
        #expect(messages.contains { $0.contains("non-empty array") })
        #expect(messages.contains { $0.contains("not both") })
    }

    @Test func theJSONSchemaListsExactlyTheKeysTheDecoderReads() throws {
        let schemaURL = Fixtures.repository.appendingPathComponent("schemas/stub.schema.json")
        let schema = try JSONParser().parseValue(Array(try Data(contentsOf: schemaURL)))
        func keys(_ pointer: String) -> Set<String> {
            guard case .object(let members)? = schema.value(at: pointer + "/properties") else { return [] }
            return Set(members.map(\.key)).subtracting(["$schema"])
        }
        #expect(keys("/$defs/stub") == JSONStubDecoder.stubKeys)
        #expect(keys("/$defs/request") == JSONStubDecoder.requestKeys)
        #expect(keys("/$defs/response") == JSONStubDecoder.responseKeys)
        #expect(keys("/$defs/cookie") == JSONStubDecoder.cookieKeys)
        #expect(keys("/$defs/latency") == JSONStubDecoder.latencyKeys)
        #expect(keys("/$defs/templateReference") == JSONStubDecoder.templateKeys)
        #expect(keys("/$defs/bodyJSON") == JSONStubDecoder.bodyJSONKeys)
        guard case .array(let failures)? = schema.value(at: "/$defs/failure/enum") else {
            Issue.record("the schema lists no failure codes")
            return
        }
        #expect(Set(failures) == Set(StubFailure.allCases.map { JSONValue.string($0.rawValue) }))
    }

    @Test func theAcmeFlixStubSetIsCompleteAndClean() throws {
        let root = Fixtures.repository.appendingPathComponent("stubs/acmeflix").path
        let result = StubLoader().load([root])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let set = result.stubSet
        func get(_ path: String) -> Stub? { set.match(StubRequest(method: "GET", path: path)).matched?.stub }
        let movieIDs = ["1msRby", "pLDhp", "DdrvJ", "iBZQ9", "L3G3N", "R0S3B", "T21DS", "TGR8D", "TUSP8", "10CFL", "JBSR3", "TSSR3"]
        #expect(get("/") != nil && get("/library") != nil && get("/cart/AzCa3T") != nil)
        for id in movieIDs {
            let movie = try #require(get("/movies/\(id)"), "movie \(id)")
            // One template renders every movie; each stub carries its movie's data.
            guard case .template(let template) = movie.response.body else {
                Issue.record("movie \(id) is not templated")
                continue
            }
            #expect(template.file.declaredPath == "movie.json.mustache")
            #expect(template.variables["id"] == .string(id))
            let poster = try #require(get("/poster/\(id)"), "poster \(id)")
            #expect(poster.response.status == (id == "10CFL" ? 500 : 200))
            if id != "10CFL" {
                guard case .file(let file) = poster.response.body else {
                    Issue.record("poster \(id) has no body file")
                    continue
                }
                #expect(try Data(contentsOf: file.url).starts(with: [0xFF, 0xD8, 0xFF]), "a JPEG")
                #expect(poster.response.headers.value(named: "Content-Type") == "image/jpg")
            }
        }
        let rent = StubRequest(method: "PUT", path: "/cart/AzCa3T", body: Data(#"{"movieId":"iBZQ9"}"#.utf8))
        #expect(set.match(rent).matched != nil)
        #expect(set.match(StubRequest(method: "DELETE", path: "/cart/AzCa3T", body: Data(#"{"movieId":"pLDhp"}"#.utf8))).matched != nil)
        #expect(set.match(StubRequest(method: "PUT", path: "/movies/pLDhp", body: Data(#"{"rating":5}"#.utf8))).matched != nil)
        // The out-of-stock movie with the duplicate self, as the real service sends it (the rendered
        // output is compared byte for byte in APICheckInterceptorTests.AcmeFlixTemplateTests).
        guard case .template(let fightClub)? = get("/movies/pLDhp")?.response.body else { return }
        #expect(fightClub.variables["inStock"] == false && fightClub.variables["untypedSelf"] == true)
        #expect(fightClub.variables["stock"] == 0 && fightClub.variables["rating"] == .number("8.8"))
    }
}
