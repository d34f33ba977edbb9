import APICheckModel
import APICheckStubFiles
import Foundation
import Testing

/// Every bad file is reported as `path:line:column: error: …`, and the good files still load.
@Suite struct StubLoaderBadInputTests {
    private static let good = Fixtures.stub(xml: #"<headers/><body>ok</body>"#, annotation: #"<annotation name="good" uri-path="/good" request-method="GET">fine</annotation>"#)

    /// Loads `good.xml` beside `bad` and checks the good stub survived.
    private func loadBeside(_ name: String, _ content: String, options: StubLoadOptions = StubLoadOptions()) throws -> (StubLoadResult, TemporaryFolder) {
        let folder = try TemporaryFolder()
        try folder.write("good.xml", Self.good)
        try folder.write(name, content)
        let result = StubLoader(options: options).load([folder.path])
        #expect(result.stubSet.stubs.map(\.name).contains("good"), "the good file must still load")
        return (result, folder)
    }

    private func onlyError(_ result: StubLoadResult, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Diagnostic {
        #expect(result.errors.count == 1, "\(result.diagnostics)", sourceLocation: sourceLocation)
        return try #require(result.errors.first, sourceLocation: sourceLocation)
    }

    @Test func malformedXMLHasItsPosition() throws {
        let (result, folder) = try loadBeside("bad.xml", "<?xml version=\"1.0\"?>\n<http-response statusCode=\"200\">\n  <headers>\n</http-response>\n")
        let error = try onlyError(result)
        #expect(error.location.path == folder.path + "/bad.xml")
        #expect(error.location.line == 4)
        #expect(error.description.hasPrefix("\(folder.path)/bad.xml:4:"))
        #expect(error.description.contains(": error: "))
        #expect(result.files.first { $0.path.hasSuffix("bad.xml") }?.isValid == false)
    }

    @Test func wrongRootElement() throws {
        let (result, _) = try loadBeside("feed.xml", "<?xml version=\"1.0\"?>\n\n<feed/>")
        let error = try onlyError(result)
        #expect(error.message.contains("wrong root element <feed>"))
        #expect((error.location.line, error.location.column) == (3, 1))
    }

    @Test(arguments: [("", "needs a statusCode"), ("statusCode=\"OK\"", "\"OK\" is not an HTTP status code"), ("statusCode=\"1000\"", "not an HTTP status code")])
    func missingOrInvalidStatusCode(attribute: String, message: String) throws {
        let content = """
            <?xml version="1.0"?>
            <http-response \(attribute)>
              <annotation uri-path="/x" request-method="GET"/>
            </http-response>
            """
        let (result, _) = try loadBeside("status.xml", content)
        let error = try onlyError(result)
        #expect(error.message.contains(message), "\(error)")
        #expect(error.location.line == 2)
        if !attribute.isEmpty { #expect(error.location.column == 16, "points at the attribute") }
    }

    @Test func unknownElementsWarnButLoad() throws {
        let content = Fixtures.stub(xml: "<body>x</body><surprise/><headers><header name=\"A\" value=\"b\"/><hedaer/></headers>")
        let (result, _) = try loadBeside("unknown.xml", content)
        #expect(result.errors.isEmpty)
        #expect(result.warnings.count == 2)
        #expect(result.warnings.contains { $0.message.contains("<surprise>") })
        #expect(result.stubSet.count == 2)
    }

    @Test func missingPathAndBadDetailsAreAllReported() throws {
        let content = """
            <?xml version="1.0"?>
            <http-response statusCode="200">
              <annotation request-method="G E T"/>
              <headers><header value="x"/></headers>
              <latency request="-1" response="soon"/>
              <failure code="explode"/>
              <body>a</body><body-file path="b"/>
            </http-response>
            """
        let (result, _) = try loadBeside("many.xml", content)
        let messages = result.errors.map(\.message)
        #expect(messages.contains { $0.contains("uri-path") })
        #expect(messages.contains { $0.contains("\"G E T\" is not an HTTP method") })
        #expect(messages.contains { $0.contains("<header> needs a name") })
        #expect(messages.contains { $0.contains("request latency") })
        #expect(messages.contains { $0.contains("response latency") })
        #expect(messages.contains { $0.contains("unknown failure code \"explode\"") && $0.contains("timedOut") })
        #expect(messages.contains { $0.contains("one body") })
        #expect(result.stubSet.count == 1)
    }

    @Test func stubFileOverTheLimitIsNotRead() throws {
        let big = Fixtures.stub(xml: "<body>" + String(repeating: "x", count: 5000) + "</body>")
        let (result, _) = try loadBeside("big.xml", big, options: StubLoadOptions(maximumStubFileBytes: 4096))
        let error = try onlyError(result)
        #expect(error.message.contains("over the stub file limit of 4096 bytes"))
    }

    @Test func bodyFileOverTheLimit() throws {
        let folder = try TemporaryFolder()
        try folder.write("big.bin", Data(count: 10_000))
        try folder.write("s.xml", Fixtures.stub(xml: #"<body-file path="big.bin"/>"#))
        let result = StubLoader(options: StubLoadOptions(maximumBodyFileBytes: 1000)).load([folder.path])
        let error = try onlyError(result)
        #expect(error.message.contains("10000 bytes, over the limit of 1000 bytes"))
        #expect(error.location.line == 4)
    }

    @Test func xxeEntityReadsNothing() throws {
        let secret = try TemporaryFolder()
        let secretFile = try secret.write("secret.txt", "TOP-SECRET")
        let content = """
            <?xml version="1.0"?>
            <!DOCTYPE http-response [ <!ENTITY leak SYSTEM "file://\(secretFile)"> <!ENTITY remote SYSTEM "http://127.0.0.1:9/x"> ]>
            <http-response statusCode="200">
              <annotation name="xxe" uri-path="/xxe" request-method="GET">&leak;&remote;</annotation>
              <body>&leak;</body>
            </http-response>
            """
        let (result, _) = try loadBeside("xxe.xml", content)
        let error = try onlyError(result)
        #expect(error.message.contains("entity declarations are not allowed"))
        #expect(!result.stubSet.stubs.contains { $0.name == "xxe" })
        #expect(!result.diagnostics.contains { $0.message.contains("TOP-SECRET") })
    }

    @Test func billionLaughsIsRejected() throws {
        var declarations = #"<!ENTITY a0 "ha">"#
        for level in 1...10 {
            declarations += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">"
        }
        let content = "<?xml version=\"1.0\"?><!DOCTYPE http-response [\(declarations)]><http-response statusCode=\"200\"><annotation uri-path=\"/\">&a10;</annotation></http-response>"
        let (result, _) = try loadBeside("lol.xml", content)
        _ = try onlyError(result)
    }

    @Test(arguments: ["../outside.bin", "/etc/hostname", "sub/../../outside.bin"])
    func bodyFileMayNotEscapeTheRoot(path: String) throws {
        let parent = try TemporaryFolder()
        try parent.write("outside.bin", "secret")
        try parent.write("stubs/s.xml", Fixtures.stub(xml: #"<body-file path="\#(path)"/>"#))
        let result = StubLoader().load([parent.path + "/stubs"])
        let error = try onlyError(result)
        #expect(error.message.contains("escapes the stub root") || error.message.contains("is absolute"), "\(error)")
        #expect(result.stubSet.isEmpty)
    }

    @Test func bodyFileSymlinkOutOfTheRootIsRefused() throws {
        let parent = try TemporaryFolder()
        let outside = try parent.write("outside.bin", "secret")
        try parent.write("stubs/s.xml", Fixtures.stub(xml: #"<body-file path="link.bin"/>"#))
        try FileManager.default.createSymbolicLink(atPath: parent.path + "/stubs/link.bin", withDestinationPath: outside)
        let result = StubLoader().load([parent.path + "/stubs"])
        let error = try onlyError(result)
        #expect(error.message.contains("symlink"))
    }

    @Test func stubFileSymlinkOutOfTheRootIsRefused() throws {
        let parent = try TemporaryFolder()
        let outside = try parent.write("elsewhere/s.xml", Fixtures.stub(xml: "<body>x</body>"))
        try parent.write("stubs/good.xml", Self.good)
        try FileManager.default.createSymbolicLink(atPath: parent.path + "/stubs/s.xml", withDestinationPath: outside)
        let result = StubLoader().load([parent.path + "/stubs"])
        let error = try onlyError(result)
        #expect(error.message.contains("outside the stub root"))
        #expect(result.stubSet.count == 1)
    }

    @Test func invalidUTF8InXMLAndJSON() throws {
        let folder = try TemporaryFolder()
        try folder.write("good.xml", Self.good)
        try folder.write("bad.xml", Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<http-response statusCode=\"200\">".utf8) + Data([0xC3, 0x28, 0xFF]) + Data("</http-response>".utf8))
        try folder.write("bad.json", Data("{\"request\":{\"path\":\"/".utf8) + Data([0xFF, 0xFE]) + Data("\"},\"response\":{\"status\":200}}".utf8))
        let result = StubLoader().load([folder.path])
        #expect(result.errors.count == 2, "\(result.diagnostics)")
        #expect(result.errors.contains { $0.location.path.hasSuffix("bad.xml") && $0.location.line == 2 })
        #expect(result.errors.contains { $0.location.path.hasSuffix("bad.json") && $0.message.contains("UTF-8") })
        #expect(result.stubSet.count == 1)
    }

    @Test func invalidJSONHasItsPosition() throws {
        let (result, _) = try loadBeside("bad.json", "{\n  \"request\": {\"path\": \"/x\"},\n  \"response\": {\"status\": 200,}\n}")
        let error = try onlyError(result)
        #expect(error.message.hasPrefix("invalid JSON"))
        #expect((error.location.line, error.location.column) == (3, 30))
    }

    @Test func jsonWithWrongTypesPointsAtTheValue() throws {
        let content = """
            {
              "name": 7,
              "request": {"method": "GET", "path": ["/x"], "headers": {"Accept": 1}},
              "response": {"status": "200", "cookies": {}, "headers": [{"value": "x"}]},
              "latency": {"request": "slow"},
              "typo": true
            }
            """
        let (result, _) = try loadBeside("types.json", content)
        let errors = result.errors.map { "\($0.location.line):\($0.location.column) \($0.message)" }
        #expect(errors.contains("2:11 \"name\" must be a string, not a number"))
        #expect(errors.contains("3:40 request.path must be a string, not an array"))
        #expect(errors.contains("3:70 request.headers \"Accept\" must be a string, not a number"))
        #expect(errors.contains("4:26 response.status must be a whole number, not a string"))
        #expect(errors.contains("4:44 response.cookies must be an array of cookie objects, not an object"))
        #expect(errors.contains { $0.hasPrefix("4:60 an entry of response.headers needs a \"name\"") })
        #expect(errors.contains("5:26 latency.request must be a number, not a string"))
        #expect(result.warnings.contains { $0.message.contains("unknown key \"typo\"") })
    }

    @Test func jsonThatIsNotAStubObject() throws {
        let (result, _) = try loadBeside("list.json", "[1, 2]")
        #expect(try onlyError(result).message.contains("holds an object"))
    }

    @Test func missingBodyFileIsReportedWithWhereItLooked() throws {
        let (result, folder) = try loadBeside("s.xml", Fixtures.stub(xml: #"<body-file path="gone.jpg"/>"#))
        let error = try onlyError(result)
        #expect(error.message.contains("\"gone.jpg\" not found"))
        #expect(error.message.contains(URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path))
    }

    @Test func aMissingPathIsReported() {
        let result = StubLoader().load(["/nonexistent/apicheck-stubs"])
        #expect(result.errors.first?.description == "/nonexistent/apicheck-stubs:1:1: error: no such file or directory")
    }

    @Test func aFIFOIsNotReadAndDoesNotHang() throws {
        let folder = try TemporaryFolder()
        try folder.write("good.xml", Self.good)
        #expect(mkfifo(folder.path + "/pipe.xml", 0o600) == 0)
        let result = StubLoader().load([folder.path])
        #expect(result.errors.first?.message == "not a regular file")
        #expect(result.stubSet.count == 1)
    }
}
