import APICheckJSON
import Foundation
import Testing

/// `apicheck schema check|lint`, and profiles in `lint` and `crawl --stubs`, driven as a user would.
@Suite struct SchemaCommandTests {
    /// A scratch folder removed when the test ends.
    final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-schema-\(UUID().uuidString)")
        var path: String { url.path }

        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }

        @discardableResult
        func write(_ relative: String, _ text: String) throws -> String {
            let file = url.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            return file.path
        }
    }

    static let movieSchema = """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "type": "object",
          "required": ["title", "year"],
          "properties": {
            "title": {"type": "string"},
            "year": {"type": "integer"},
            "director": {"$ref": "people.json#/$defs/person"}
          }
        }
        """
    static let peopleSchema = #"{"$defs": {"person": {"type": "object", "required": ["name"]}}}"#
    /// The movie without the reference to another file.
    static let plainMovieSchema = #"{"type": "object", "required": ["title", "year"], "properties": {"title": {"type": "string"}, "year": {"type": "integer"}}}"#

    @Test func checkExitsZeroOneOrTwoAndLocatesEachProblem() throws {
        let scratch = try Scratch()
        let schema = try scratch.write("schemas/movie.json", Self.movieSchema)
        try scratch.write("schemas/people.json", Self.peopleSchema)
        let good = try scratch.write("good.json", #"{"title": "Heat", "year": 1995, "director": {"name": "Michael Mann"}}"#)
        let bad = try scratch.write("bad.json", "{\n  \"title\": \"Heat\",\n  \"year\": \"1995\",\n  \"director\": {}\n}")
        let broken = try scratch.write("broken.json", "{\"title\": ")

        let ok = try CLI.run(["schema", "check", schema, good])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        let invalid = try CLI.run(["schema", "check", schema, good, bad])
        #expect(invalid.status == 1)
        #expect(invalid.stdout.contains("\(bad):3:11: error: /year: "), "\(invalid.stdout)")
        #expect(invalid.stdout.contains("[/properties/year/type]"))
        // Through the $ref into the other file, at the object that lacks the member.
        #expect(invalid.stdout.contains("\(bad):4:15: error: /director: "), "\(invalid.stdout)")
        #expect(invalid.stderr.contains("2 instances: 1 valid, 1 invalid"))
        let unreadable = try CLI.run(["schema", "check", schema, broken])
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.contains("\(broken):1:11: error: not valid JSON"), "\(unreadable.stderr)")
    }

    @Test func helpReadsAsProse() throws {
        for command in [["schema", "--help"], ["schema", "check", "--help"], ["schema", "lint", "--help"], ["schema", "generate", "--help"], ["schema", "compliance", "--help"]] {
            let help = try CLI.run(command)
            #expect(help.status == 0)
            #expect(!help.stdout.contains("\\"), "a stray backslash in \(command): \(help.stdout)")
            #expect(help.stdout.contains("apicheck schema"), "\(command) shows examples")
        }
    }

    @Test func jsonOutputIsTheBasicOutputFormat() throws {
        let scratch = try Scratch()
        let schema = try scratch.write("movie.json", Self.plainMovieSchema)
        let bad = try scratch.write("bad.json", #"{"title": 1, "year": 1995}"#)
        let result = try CLI.run(["schema", "check", schema, bad, "--format", "json"])
        #expect(result.status == 1)
        let output = try JSONParser().parseValue(Array(result.stdout.split(separator: "\n")[0].utf8))
        #expect(output["valid"] == false)
        #expect(output["instance"] == .string(bad))
        #expect(output.value(at: "/errors/0/instanceLocation") == "/title")
        #expect(output.value(at: "/errors/0/keywordLocation") == "/properties/title/type")
        #expect(output.value(at: "/errors/0/error") != nil)
    }

    @Test func jsonLinesReportsALinePerInvalidInstanceAndASummary() throws {
        let scratch = try Scratch()
        let schema = try scratch.write("movie.json", #"{"type": "object", "required": ["year"], "properties": {"year": {"type": "integer"}}}"#)
        var lines: [String] = []
        for index in 0..<2_000 { lines.append(index % 100 == 7 ? #"{"year": "x"}"# : #"{"year": \#(index)}"#) }
        lines.insert("", at: 10)  // blank lines are skipped
        let file = try scratch.write("answers.jsonl", lines.joined(separator: "\n") + "\n")
        let result = try CLI.run(["schema", "check", schema, "--jsonl", file, "--jobs", "2"])
        #expect(result.status == 1)
        let reported = result.stdout.split(separator: "\n")
        #expect(reported.count == 20)
        #expect(reported.first?.hasPrefix("\(file):8:1: error: /year: ") == true, "\(reported.first ?? "")")
        #expect(result.stderr.contains("2000 instances from \(file): 1980 valid, 20 invalid"), "\(result.stderr)")
        let notJSON = try scratch.write("bad.jsonl", "{\"year\": 1}\n{\"year\": \n")
        let bad = try CLI.run(["schema", "check", schema, "--jsonl", notJSON])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("\(notJSON):2:"), "\(bad.stderr)")
    }

    @Test func aBadSchemaIsALocatedErrorAndExitTwo() throws {
        let scratch = try Scratch()
        let schema = try scratch.write("bad.json", "{\n  \"type\": \"object\",\n  \"properties\": {\"a\": {\"minLength\": -1}}\n}")
        let instance = try scratch.write("i.json", "{}")
        let result = try CLI.run(["schema", "check", schema, instance])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(schema):3:"), "\(result.stderr)")
        let remote = try scratch.write("remote.json", #"{"$ref": "https://example.com/schemas/movie.json"}"#)
        let refused = try CLI.run(["schema", "check", remote, instance])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("remote schemas are not fetched"), "\(refused.stderr)")
    }

    @Test func aHundredMegabyteSchemaIsRefusedBeforeItIsRead() throws {
        let scratch = try Scratch()
        let schema = try scratch.write("huge.json", "{")
        // Sparse: the size is checked on the open file before a byte is read.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: schema))
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let instance = try scratch.write("i.json", "{}")
        for command in [["schema", "check", schema, instance], ["schema", "lint", schema]] {
            let result = try CLI.run(command)
            #expect(result.status == 2, "\(command)")
            #expect((result.stdout + result.stderr).contains("over the limit"), "\(command): \(result.stdout)\(result.stderr)")
        }
    }

    @Test func lintFindsTyposMetaSchemaErrorsAndUnresolvableRefs() throws {
        let scratch = try Scratch()
        let schema = try scratch.write("movie.json", """
            {
              "$schema": "https://json-schema.org/draft/2020-12/schema",
              "type": "object",
              "requried": ["title"],
              "properties": {"year": {"type": "integr"}, "cast": {"$ref": "#/$defs/missing"}}
            }
            """)
        let result = try CLI.run(["schema", "lint", schema])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\(schema):4:3: warning: \"requried\" is not a keyword of 2020-12 (did you mean \"required\"?)"), "\(result.stdout)")
        // One error for the typo: the compiler's, at the value, not the meta-schema's as well.
        #expect(result.stdout.contains("\(schema):5:27: error: unknown type \"integr\""), "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "error:").count == 3, "two errors: \(result.stdout)")
        // And the reference that the compiler, stopped at the first error, did not reach.
        #expect(result.stdout.contains("error: $ref \"#/$defs/missing\" names nothing in this schema"), "\(result.stdout)")
        let unresolved = try scratch.write("unresolved.json", ##"{"properties": {"cast": {"$ref": "#/$defs/missing"}}}"##)
        let broken = try CLI.run(["schema", "lint", unresolved])
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("#/$defs/missing"), "\(broken.stdout)")
        // A reference in an entry nothing uses yet is found too.
        let unused = try scratch.write("unused.json", "{\n  \"$defs\": {\"old\": {\"$ref\": \"#/$defs/nope\"}}\n}")
        let dangling = try CLI.run(["schema", "lint", unused])
        #expect(dangling.status == 1)
        #expect(dangling.stdout.contains("\(unused):2:29: error: $ref \"#/$defs/nope\" names nothing in this schema"), "\(dangling.stdout)")
        let clean = try scratch.write("clean.json", Self.plainMovieSchema)
        let ok = try CLI.run(["schema", "lint", clean])
        #expect(ok.status == 0, "\(ok.stdout)")
        #expect(ok.stdout.contains("0 errors, 0 warnings"))
    }

    @Test func generateWritesValidInstancesAndOnesThatBreakOneKeyword() throws {
        let scratch = try Scratch()
        let schema = try scratch.write("schemas/movie.json", Self.movieSchema)
        try scratch.write("schemas/people.json", Self.peopleSchema)
        let result = try CLI.run(["schema", "generate", schema, "--count", "20", "--seed", "7"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 20)
        #expect(try CLI.run(["schema", "generate", schema, "--count", "20", "--seed", "7"]).stdout == result.stdout, "the same seed, the same instances")
        let file = try scratch.write("generated.jsonl", result.stdout)
        let check = try CLI.run(["schema", "check", schema, "--jsonl", file])
        #expect(check.status == 0, "every generated instance validates: \(check.stdout)\(check.stderr)")

        let violable = try CLI.run(["schema", "generate", schema, "--list-violable"])
        #expect(violable.stdout.split(separator: "\n").contains("/properties/year/type"), "\(violable.stdout)")
        let broken = try CLI.run(["schema", "generate", schema, "--violate", "/properties/year/type", "--count", "3"])
        #expect(broken.status == 0, "\(broken.stderr)")
        let brokenFile = try scratch.write("broken.jsonl", broken.stdout)
        let failing = try CLI.run(["schema", "check", schema, "--jsonl", brokenFile])
        #expect(failing.status == 1)
        #expect(failing.stdout.split(separator: "\n").allSatisfy { $0.contains("[/properties/year/type]") }, "\(failing.stdout)")

        let impossible = try scratch.write("impossible.json", #"{"type": "string", "minLength": 5, "maxLength": 2}"#)
        let refused = try CLI.run(["schema", "generate", impossible])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("Length"), "the error names the keyword: \(refused.stderr)")
    }

    // MARK: Profiles in lint and crawl

    /// A stub set whose movie body breaks its own profile, in a body file.
    static func stubSet(in scratch: Scratch) throws {
        try scratch.write("set/apicheck.json", #"{"profiles": {"application/vnd.acme.movie+json": "schemas/movie.json"}}"#)
        try scratch.write("set/schemas/movie.json", movieSchema)
        try scratch.write("set/schemas/people.json", peopleSchema)
        try scratch.write("set/root.json", #"""
            {"request": {"method": "GET", "path": "/"},
             "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                          "body": {"links": [{"rel": "movie", "href": "/movies/1", "type": "application/vnd.acme.movie+json"}]}}}
            """#)
        try scratch.write("set/movie.json", #"""
            {"request": {"method": "GET", "path": "/movies/1"},
             "response": {"status": 200, "headers": {"Content-Type": "application/vnd.acme.movie+json"}, "bodyFile": "bodies/movie-1.json"}}
            """#)
        try scratch.write("set/bodies/movie-1.json", "{\n  \"title\": \"Heat\",\n  \"year\": \"1995\"\n}\n")
    }

    @Test func lintChecksStubBodiesAgainstTheStubSetsProfiles() throws {
        let scratch = try Scratch()
        try Self.stubSet(in: scratch)
        let result = try CLI.run(["lint", scratch.path + "/set"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("\(scratch.path)/set/bodies/movie-1.json:3:11: error: the body at /year does not match the profile of application/vnd.acme.movie+json"), "\(result.stdout)")
        #expect(result.stdout.contains("2 stub files, 2 stubs: 1 error, 0 warnings"), "\(result.stdout)")
        // A profile named on the command line wins over the stub set's.
        let lax = try scratch.write("lax.json", #"{"type": "object"}"#)
        let relaxed = try CLI.run(["lint", scratch.path + "/set", "--profile", "application/vnd.acme.movie+json=\(lax)"])
        #expect(relaxed.status == 0, "\(relaxed.stdout)")
    }

    @Test func crawlReportsBodySchemaInTheJSONReport() throws {
        let scratch = try Scratch()
        try Self.stubSet(in: scratch)
        let result = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", scratch.path + "/set", "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try JSONParser().parseValue(Array(result.stdout.utf8))
        guard case .array(let findings)? = report["findings"] else {
            Issue.record("no findings")
            return
        }
        let bodySchema = findings.filter { $0["rule"] == "body-schema" }
        #expect(bodySchema.count == 1)
        #expect(bodySchema.first?["sourcePointer"] == "/year")
        #expect(bodySchema.first?["expected"] == "schemas/movie.json#/properties/year/type")
        let text = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", scratch.path + "/set"])
        #expect(text.stdout.contains("error[body-schema] the body's /year: "), "\(text.stdout)")
        // A broken profile stops the crawl before it starts.
        try scratch.write("set/schemas/movie.json", "{\"type\": ")
        let broken = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", scratch.path + "/set"])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("schemas/movie.json:1:10: error: the schema is not valid JSON"), "\(broken.stderr)")
    }
}
