import APICheckJSON
import Foundation
import Testing

@Suite struct LintCommandTests {
    @Test func cleanStubSetExitsZero() throws {
        let result = try CLI.run(["lint", "stubs/acmeflix"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("8 stub files, 48 stubs: 0 errors, 0 warnings"))
    }

    @Test func invalidFilesExitOneWithCompilerStyleLocations() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<http-response statusCode=\"200\">\n  <annotation uri-path=\"/ok\"/>\n</http-response>".utf8).write(to: folder.appendingPathComponent("good.xml"))
        try Data("<http-response statusCode=\"abc\">\n  <annotation uri-path=\"/x\"/>\n</http-response>".utf8).write(to: folder.appendingPathComponent("bad.xml"))
        try Data("{\"request\": {\"path\": \"/y\"},\n \"response\": {\"status\": 200}".utf8).write(to: folder.appendingPathComponent("bad.json"))

        let result = try CLI.run(["lint", folder.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(folder.path)/bad.xml:1:16: error: status \"abc\" is not an HTTP status code (100-599)"))
        #expect(result.stdout.contains("\(folder.path)/bad.json:2:29: error: invalid JSON: unexpected end of document inside an object"))
        #expect(result.stdout.contains("3 stub files, 1 stub: 2 errors, 0 warnings (2 invalid files not loaded)"))

        let json = try CLI.run(["lint", folder.path, "--format", "json"])
        #expect(json.status == 1)
        let report = try JSONParser().parseValue(Array(json.stdout.utf8))
        #expect(report["schemaVersion"] == 1)
        #expect(report["summary"]?["errors"] == 2)
        #expect(report["summary"]?["stubs"] == 1)
        guard case .array(let diagnostics)? = report["diagnostics"] else {
            Issue.record("no diagnostics array")
            return
        }
        #expect(diagnostics.contains { $0["line"] == 1 && $0["column"] == 16 && $0["severity"] == "error" })
    }

    @Test func brokenTemplatesAreLintErrorsAndUnknownNamesWarnings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("templates"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{\"id\": \"{{request.pathParams.id}}\",\n \"title\": \"{{titel}}\"}".utf8).write(to: folder.appendingPathComponent("templates/movie.json.mustache"))
        try Data("{\"items\": [\n{{#request.json.items}}\n\"{{.}}\"\n]}".utf8).write(to: folder.appendingPathComponent("templates/broken.json.mustache"))
        try Data(#"{"stubs": [{"request": {"path": "/movies/{id}"}, "response": {"status": 200, "template": {"path": "templates/movie.json.mustache", "variables": {"title": "Dune"}}}}, {"request": {"path": "/b"}, "response": {"status": 200, "template": "templates/broken.json.mustache"}}]}"#.utf8).write(to: folder.appendingPathComponent("stubs.json"))
        let result = try CLI.run(["lint", folder.path])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("broken.json.mustache:") && result.stdout.contains(": error: "), "\(result.stdout)")
        #expect(result.stdout.contains("movie.json.mustache:2:") && result.stdout.contains("titel"), "\(result.stdout)")
    }

    @Test func warningsFailOnlyWithStrict() throws {
        let fixture = "Tests/APICheckStubFilesTests/Fixtures/pewire"
        #expect(try CLI.run(["lint", fixture]).status == 0)
        let strict = try CLI.run(["lint", fixture, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("warning: Content-Length 99 does not match the body (38 bytes)"))
    }

    @Test(arguments: [["lint"], ["lint", "stubs", "--format", "yaml"], ["lint", "--bogus", "stubs"], ["frobnicate"], ["show"], ["show", "stubs/acmeflix"]])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test func missingPathsAndRootsAreUsageErrors() throws {
        let missing = try CLI.run(["lint", "no/such/folder"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("'no/such/folder': no such file or folder."))
        let root = try CLI.run(["lint", "stubs/acmeflix", "--root", "no/such/root"])
        #expect(root.status == 2)
        #expect(root.stderr.contains("--root 'no/such/root' is not a folder."))
    }

    @Test(arguments: [[], ["lint"], ["show"]])
    func everyCommandHasHelpWithExamples(command: [String]) throws {
        let result = try CLI.run(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Examples:"))
        #expect(result.stdout.contains("apicheck "))
    }
}

@Suite struct ShowCommandTests {
    @Test func showsTheNormalisedStubWithTextAndBase64Bodies() throws {
        let result = try CLI.run(["show", "Tests/APICheckStubFilesTests/Fixtures/pewire/responses/logo.xml", "--root", "Tests/APICheckStubFilesTests/Fixtures/pewire"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONParser().parseValue(Array(result.stdout.utf8))
        #expect(document["schemaVersion"] == 1)
        let stub = document.value(at: "/stubs/0")
        #expect(stub?["name"] == "logo")
        #expect(stub?.value(at: "/request/method") == "GET")
        #expect(stub?.value(at: "/request/path") == "/accounts/7/logo.bin")
        #expect(stub?.value(at: "/source/line") == 3)
        #expect(stub?.value(at: "/response/body/encoding") == "base64")
        let expected = Data((0..<256).map { UInt8($0) } + [0xFF, 0xD8, 0xFF, 0x00, 0x80, 0xC3, 0x28])
        #expect(stub?.value(at: "/response/body/base64") == .string(expected.base64EncodedString()))

        let cookies = try CLI.run(["show", "Tests/APICheckStubFilesTests/Fixtures/pewire/responses/users-with-cookies.xml"])
        #expect(cookies.status == 0)
        #expect(cookies.stderr.contains("warning: Content-Length 99"))
        let stubs = try JSONParser().parseValue(Array(cookies.stdout.utf8))
        #expect(stubs.value(at: "/stubs/0/response/body/text") == "<accounts><account id=\"7\"/></accounts>")
        #expect(stubs.value(at: "/stubs/0/response/cookies/0/secure") == true)
        #expect(stubs.value(at: "/stubs/0/response/cookies/0/expires") == "Wed, 20 Mar 2024 08:30:00 GMT")
        #expect(stubs.value(at: "/stubs/0/response/cookies/1/secure") == false)
        #expect(stubs.value(at: "/stubs/0/response/headers/3/value") == "99")
        #expect(stubs.value(at: "/stubs/0/description") == "Lists accounts and sets two cookies.")
    }

    @Test func invalidFileExitsOneWithTheErrorOnStderr() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-show-\(UUID().uuidString).json")
        try Data("{\"request\": {\"path\": 5}}".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLI.run(["show", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(file.path):1:22: error: request.path must be a string, not a number"))
        #expect(result.stdout.isEmpty)
    }

    @Test func everyResponseOfASequenceIsShown() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-show-\(UUID().uuidString).json")
        try Data(#"{"request": {"path": "/job"}, "responses": [{"status": 202}, {"status": 200, "body": "done"}], "afterLast": "fail"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLI.run(["show", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONParser().parseValue(Array(result.stdout.utf8))
        #expect(document.value(at: "/stubs/0/response/status") == 202)
        #expect(document.value(at: "/stubs/0/sequence/afterLast") == "fail")
        #expect(document.value(at: "/stubs/0/sequence/responses/0/status") == 202)
        #expect(document.value(at: "/stubs/0/sequence/responses/1/status") == 200)
        #expect(document.value(at: "/stubs/0/sequence/responses/1/body/text") == #""done""#, "a JSON body is the JSON value")
    }
}

/// A mistyped option or command is named as such, with the spelling meant, before anything it
/// caused (a value taken for a path) is reported.
@Suite struct ArgumentTypoTests {
    @Test func aMistypedOptionIsReportedBeforeThePathItsValueBecame() throws {
        let result = try CLI.run(["lint", "--formt", "json", "stubs/acmeflix"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: Unknown option '--formt'. Did you mean '--format'?\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("no such file"))
        let crawl = try CLI.run(["crawl", "--sampel", "3", "http://localhost:3000/"])
        #expect(crawl.stderr.hasPrefix("Error: Unknown option '--sampel'. Did you mean '--sample'?"), "\(crawl.stderr)")
    }

    @Test func aMistypedCommandGetsASuggestion() throws {
        let result = try CLI.run(["lnt", "stubs"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: Unknown command 'lnt'. Did you mean 'lint'? Commands: init, lint, show, serve, import, record, verify, crawl, probe, report, schema."), "\(result.stderr)")
    }

    @Test func knownOptionsAndValuesPass() throws {
        let result = try CLI.run(["lint", "--format=json", "--strict", "stubs/acmeflix"])
        #expect(result.status == 0, "\(result.stderr)")
        let missing = try CLI.run(["lint", "--format", "json", "no-such-folder"])
        #expect(missing.stderr.contains("'no-such-folder': no such file or folder"), "a real problem is still reported as itself")
    }

    @Test func helpWrapsAtWordsNotAtSourceLines() throws {
        let result = try CLI.run(["crawl", "--help"])
        // Prose paragraphs are one line each in the source; ArgumentParser wraps them at the width.
        #expect(result.stdout.contains("Follows every GET link breadth-first from the root (same origin unless"))
        #expect(!result.stdout.contains("checks each with the rules of docs/reports.md (link-resolves, method-valid,\ntype-matches"))
    }
}
