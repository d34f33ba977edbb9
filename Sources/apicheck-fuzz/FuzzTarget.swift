import Foundation

/// One parser of untrusted input, driven by arbitrary bytes. Each target feeds its parser and then
/// checks what must hold of any answer (a value or a located error, round trips, bounds); a broken
/// invariant calls ``FuzzCheck/fail(_:)``, which aborts, so libFuzzer keeps the input as a crash.
enum FuzzTarget: String, CaseIterable {
    case xmlStub = "xml-stub"
    case jsonStub = "json-stub"
    case json
    case links
    case linkHeader = "link-header"
    case mediaType = "media-type"
    case uriTemplate = "uri-template"
    case server
    case serverHTTP2 = "server-h2"
    case pathMatch = "path-match"
    case template
    case schema
    case openapi
    case probe

    var summary: String {
        switch self {
        case .xmlStub: "one XML stub file (libxml2, schema checks, decoding) from bytes"
        case .jsonStub: "one JSON stub file from bytes"
        case .json: "JSONParser: parse, then write and parse again (compact and pretty)"
        case .links: "LinkExtractor on a body; the first byte picks the media type and the limits"
        case .linkHeader: "LinkHeaderParser and the Link header extraction; serialise and parse again"
        case .mediaType: "MediaType(parsing:) and MediaType.problems(in:); description parses back"
        case .uriTemplate: "URITemplate: line 1 the template, then name=value lines; parse and expand"
        case .server: "raw bytes into the stub server's connection pipeline (NIO HTTP decoder + StubHTTPHandler)"
        case .serverHTTP2: "HTTP/2 frames after the preface into the stub server's HTTP/2 pipeline (NIOHTTP2, HTTP2StreamWire, StubHTTPHandler)"
        case .pathMatch: "StubSet matching against a reference matcher: lines 'S METHOD PATTERN', 'R METHOD TARGET'"
        case .template: "a Mustache template: lint (TemplateRenderer.diagnose), then render it"
        case .schema: "a JSON Schema compiled, then instances validated: schema, a '--' line, one instance per line; byte 1 picks the draft"
        case .openapi: "an OpenAPI document (YAML or JSON) read with OpenAPIDocumentReader: a document or a located error"
        case .probe: "apicheck probe's plan from one crawled answer (byte 0: media type and budget): origin, budget and size bounds"
        }
    }

    /// Runs the target on one input.
    func run(_ data: [UInt8]) {
        switch self {
        case .xmlStub: StubFileFuzzer.run(data, format: .xml)
        case .jsonStub: StubFileFuzzer.run(data, format: .json)
        case .json: JSONFuzzer.run(data)
        case .links: LinkFuzzer.runExtractor(data)
        case .linkHeader: LinkFuzzer.runLinkHeader(data)
        case .mediaType: SyntaxFuzzer.runMediaType(data)
        case .uriTemplate: SyntaxFuzzer.runURITemplate(data)
        case .server: ServerFuzzer.run(data)
        case .serverHTTP2: HTTP2ServerFuzzer.run(data)
        case .pathMatch: PathMatchFuzzer.run(data)
        case .template: TemplateFuzzer.run(data)
        case .schema: SchemaFuzzer.run(data)
        case .openapi: OpenAPIFuzzer.run(data)
        case .probe: ProbeFuzzer.run(data)
        }
    }
}

/// Invariant checks: a failure prints what broke and aborts (libFuzzer saves the input; the replay
/// mode names the file).
enum FuzzCheck {
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("apicheck-fuzz: invariant broken: \(message)\n".utf8))
        ReplayState.printCurrentInput()
        abort()
    }

    /// Lines a position may name: every `\n`, and every `\r` (libxml2 counts a lone one), plus one.
    static func lineBound(_ bytes: some Collection<UInt8>) -> Int {
        bytes.reduce(1) { $0 + ($1 == 0x0A || $1 == 0x0D ? 1 : 0) }
    }
}

/// Reads a fuzz input piece by piece; past the end every read is empty or zero.
struct FuzzInput {
    private(set) var rest: ArraySlice<UInt8>

    init(_ data: [UInt8]) {
        rest = data[...]
    }

    mutating func byte() -> UInt8 {
        rest.popFirst() ?? 0
    }

    /// The input split into lines (`\n`), as text; the split bytes are repaired as UTF-8.
    static func lines(_ data: ArraySlice<UInt8>) -> [String] {
        data.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// A scratch folder for the targets that read files (stub roots, template files), removed at exit.
enum FuzzScratch {
    nonisolated(unsafe) private static var cached: String?

    static var folder: String {
        if let cached { return cached }
        // In memory when the system has a tmpfs at /dev/shm: the template target writes a file per input.
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        let folder = base.appendingPathComponent("apicheck-fuzz-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder + "/templates", withIntermediateDirectories: true)
        // Files stub inputs may refer to: a body and a template.
        write(Array(#"{"id": 1, "title": "Alien"}"#.utf8), to: folder + "/body.json")
        write(Array(#"{"id": "{{request.pathParams.id}}"}"#.utf8), to: folder + "/templates/page.json.mustache")
        cached = folder
        atexit { if let folder = FuzzScratch.cached { try? FileManager.default.removeItem(atPath: folder) } }
        return folder
    }

    /// Replaces the file's contents: a plain `write`, without the syncing of an atomic write.
    static func write(_ bytes: [UInt8], to path: String) {
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard file >= 0 else { FuzzCheck.fail("cannot write \(path)") }
        defer { close(file) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(file, $0.baseAddress, $0.count) }
            guard written > 0 else { FuzzCheck.fail("cannot write \(path)") }
            offset += written
        }
    }
}
