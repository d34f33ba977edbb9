import APICheckJSON
import APICheckModel
import APICheckResponder
import APICheckStubFiles
import Foundation
import Testing

@testable import APICheckRecording

/// A folder removed when the test ends.
final class RecordingFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-recording-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    /// Every file below the folder, relative, sorted.
    var files: [String] {
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
        var result: [String] = []
        while let item = enumerator?.nextObject() as? URL {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: item.path, isDirectory: &isFolder), !isFolder.boolValue {
                result.append(String(item.resolvingSymlinksInPath().path.dropFirst(url.resolvingSymlinksInPath().path.count + 1)))
            }
        }
        return result.sorted()
    }

    /// All file contents, concatenated, for secret searches.
    var allText: String {
        files.map { (try? String(contentsOf: url.appendingPathComponent($0), encoding: .utf8)) ?? "" }.joined(separator: "\n")
    }
}

private let upstream = "http://api.upstream.test:8000"

private func exchange(
    _ target: String, method: String = "GET", requestHeaders: [HTTPHeader] = [], status: Int = 200, headers: [HTTPHeader] = [],
    body: String
) -> RecordedExchange {
    RecordedExchange(
        request: StubRequest(method: method, url: URL(string: upstream + target)!, headers: requestHeaders),
        response: UpstreamResponse(status: status, headers: headers, body: Data(body.utf8)), upstream: upstream,
        date: Date(timeIntervalSince1970: 1_790_000_000))
}

/// Loads the recording (it must lint clean) and answers `target` from it, as every transport does.
private func serve(_ folder: RecordingFolder, _ target: String, method: String = "GET", origin: String) throws -> StubReply {
    let result = StubLoader().load([folder.url.path])
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let responder = StubResponder(stubs: result.stubSet)
    return responder.reply(to: StubRequest(method: method, url: URL(string: origin + target)!), at: .url(URL(string: origin + target)!))
}

private func text(_ reply: StubReply) -> String {
    if case .bytes(let data) = reply.body { return String(decoding: data, as: UTF8.self) }
    if case .file(let file) = reply.body { return (try? String(contentsOf: file.url, encoding: .utf8)) ?? "" }
    return ""
}

@Suite struct StubRecorderTests {
    @Test func compactJSONIsWrittenInlineAndServedByteForByte() throws {
        let folder = try RecordingFolder()
        let recorder = try StubRecorder(directory: folder.url)
        let body = #"{"id":42,"price":1.50,"tags":["a","b"],"z":null}"#
        let outcome = recorder.record(exchange("/orders/42", headers: [HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "Date", value: "x"), HTTPHeader(name: "Connection", value: "close")], body: body))
        #expect(outcome == .written("orders/42.json"))
        #expect(folder.files == ["orders/42.json"])
        let written = try String(contentsOf: folder.url.appendingPathComponent("orders/42.json"), encoding: .utf8)
        #expect(written.contains("\"price\": 1.50"), "pretty-printed, numbers as written: \(written)")
        #expect(written.contains("Recorded from http://api.upstream.test:8000/orders/42"))
        let reply = try serve(folder, "/orders/42", origin: "http://127.0.0.1:9")
        #expect(reply.status == 200)
        #expect(text(reply) == body)
        #expect(reply.headers.map(\.name) == ["Content-Type"], "Date and hop-by-hop headers are not recorded")
    }

    @Test func theUpstreamsOriginBecomesBaseURLInBodiesAndLinkHeaders() throws {
        let folder = try RecordingFolder()
        let recorder = try StubRecorder(directory: folder.url)
        let body = #"{"_links":{"self":{"href":"http://api.upstream.test:8000/orders/7"},"other":{"href":"http://api.upstream.test:80001/x"},"escaped":"http:\/\/api.upstream.test:8000\/y"},"note":"{{not a tag}}"}"#
        recorder.record(exchange(
            "/orders/7", status: 201,
            headers: [
                HTTPHeader(name: "Content-Type", value: "application/hal+json"),
                HTTPHeader(name: "Location", value: "http://api.upstream.test:8000/orders/7"),
                HTTPHeader(name: "Link", value: "<http://api.upstream.test:8000/orders?page=2>; rel=\"next\""),
            ], body: body))
        #expect(folder.files == ["orders/7.body.json.mustache", "orders/7.json"])
        let reply = try serve(folder, "/orders/7", origin: "http://127.0.0.1:3000")
        let expected = body.replacingOccurrences(of: "http://api.upstream.test:8000/", with: "http://127.0.0.1:3000/")
            .replacingOccurrences(of: #"http:\/\/api.upstream.test:8000"#, with: "http://127.0.0.1:3000")
        #expect(text(reply) == expected, "another origin's lookalike (:80001) and {{…}} in the text are left alone")
        #expect(reply.headers.value(named: "Location") == "http://127.0.0.1:3000/orders/7")
        #expect(reply.headers.value(named: "Link") == "<http://127.0.0.1:3000/orders?page=2>; rel=\"next\"")
        #expect(reply.redirectLocation == nil)
        // Served from the upstream's own origin, the body is the recorded one byte for byte
        // (the JSON-escaped form of the origin aside, which a template writes plainly).
        let same = try serve(folder, "/orders/7", origin: upstream)
        #expect(text(same) == body.replacingOccurrences(of: #"http:\/\/api.upstream.test:8000"#, with: upstream))
    }

    @Test func secretsNeverReachTheDisk() throws {
        let folder = try RecordingFolder()
        var options = RecordingOptions(redactedHeaders: ["X-Session"], redactedJSONPointers: ["/user/email", "/items/*/card"])
        options.secrets = ["from-the-command-line-9"]
        let recorder = try StubRecorder(directory: folder.url, options: options)
        let body = #"{"token":"bearer-secret-abc123","user":{"email":"ada@example.test","name":"Ada"},"items":[{"card":"4111"},{"card":"5500"}],"cli":"from-the-command-line-9"}"#
        recorder.record(exchange(
            "/me?access_token=qs-secret-777&page=1",
            requestHeaders: [
                HTTPHeader(name: "Authorization", value: "Bearer bearer-secret-abc123"),
                HTTPHeader(name: "Cookie", value: "session=cookie-secret-456; theme=dark"),
            ],
            headers: [
                HTTPHeader(name: "Content-Type", value: "application/json"),
                HTTPHeader(name: "Set-Cookie", value: "session=cookie-secret-456; Path=/; HttpOnly"),
                HTTPHeader(name: "X-Session", value: "header-secret-888"),
            ], body: body))
        let everything = folder.allText + folder.files.joined(separator: " ")
        for secret in ["bearer-secret-abc123", "cookie-secret-456", "qs-secret-777", "ada@example.test", "4111", "5500", "header-secret-888", "from-the-command-line-9"] {
            #expect(!everything.contains(secret), "\(secret) was written")
        }
        #expect(everything.contains("session=REDACTED; Path=/; HttpOnly"), "a cookie keeps its name and attributes")
        #expect(everything.contains("\"Ada\""), "what is not secret stays")
        #expect(recorder.summary.redacted.contains("Set-Cookie values"))
        #expect(recorder.summary.redacted.contains("token-like query parameters"))
        #expect(recorder.summary.redacted.contains { $0.hasPrefix("JSON values at") })
        // The redacted query parameter matches any value, so the stub still answers.
        let reply = try serve(folder, "/me?access_token=another&page=1", origin: "http://127.0.0.1:1")
        #expect(reply.status == 200)
        // Matching on a secret header is refused up front.
        #expect(throws: RecordingError.self) { try StubRecorder(directory: folder.url, options: RecordingOptions(matchHeaders: ["authorization"])) }
    }

    @Test func repeatedAndDifferentAnswersAndSequences() throws {
        let folder = try RecordingFolder()
        let recorder = try StubRecorder(directory: folder.url)
        #expect(recorder.record(exchange("/count", body: "1")) == .written("count.json"))
        #expect(recorder.record(exchange("/count", body: "1")) == .repeated("count.json"))
        #expect(recorder.record(exchange("/count", body: "2")) == .differed("count.json"))
        #expect(text(try serve(folder, "/count", origin: "http://x.test")) == "1")

        let sequences = try RecordingFolder()
        let sequenced = try StubRecorder(directory: sequences.url, options: RecordingOptions(sequences: true))
        sequenced.record(exchange("/count", body: "1"))
        #expect(sequenced.record(exchange("/count", body: "2")) == .appended("count.json", response: 2))
        #expect(sequenced.record(exchange("/count", body: "1")) == .repeated("count.json"))
        let result = StubLoader().load([sequences.url.path])
        let responder = StubResponder(stubs: result.stubSet)
        let answers = (0..<3).map { _ in text(responder.reply(to: StubRequest(method: "GET", path: "/count"), at: .target(origin: "http://x.test", target: "/count"))) }
        #expect(answers == ["1", "2", "2"], "a sequence that repeats its last answer")
    }

    @Test func existingFilesAreKeptUnlessOverwriteIsAsked() throws {
        let folder = try RecordingFolder()
        let path = folder.url.appendingPathComponent("root.json")
        try Data("hand-written".utf8).write(to: path)
        let recorder = try StubRecorder(directory: folder.url)
        #expect(recorder.record(exchange("/", body: "new")) == .skippedExisting("root.json"))
        #expect(try String(contentsOf: path, encoding: .utf8) == "hand-written")
        #expect(recorder.summary.description.contains("not overwritten (use --overwrite)"))
        let overwriting = try StubRecorder(directory: folder.url, options: RecordingOptions(overwrite: true))
        #expect(overwriting.record(exchange("/", body: "new")) == .written("root.json"))
        #expect(text(try serve(folder, "/", origin: "http://x.test")) == "new")
    }

    @Test func namesAreReadableAndNeverLeaveTheFolder() throws {
        let folder = try RecordingFolder()
        let recorder = try StubRecorder(directory: folder.url)
        recorder.record(exchange("/orders/42?page=2", body: "p2"))
        recorder.record(exchange("/orders", method: "POST", status: 201, body: "made"))
        recorder.record(exchange("/files/%7Bid%7D/a*b", body: "literal"))
        recorder.record(exchange("/a/%2E%2E/%2E%2E/%2E%2E/etc/passwd", body: "dots"))
        recorder.record(exchange("/" + String(repeating: "x", count: 300), body: "long"))
        recorder.record(exchange("/orders", method: "HEAD", body: ""))
        let files = folder.files
        #expect(files.contains("orders/42.q-page-2.json"))
        #expect(files.contains("orders.post.json"))
        #expect(files.allSatisfy { !$0.hasPrefix("..") && !$0.contains("/../") && $0.split(separator: "/").allSatisfy { $0.count <= 80 } }, "\(files)")
        #expect(files.count == 5, "HEAD is answered by GET stubs: \(files)")
        #expect(text(try serve(folder, "/files/%7Bid%7D/a*b", origin: "http://x.test")) == "literal", "braces and stars are literal, not a template")
        #expect(try serve(folder, "/files/7/a*b", origin: "http://x.test").status == 404)
        #expect(text(try serve(folder, "/orders", method: "POST", origin: "http://x.test")) == "made")
    }

    /// `verify --update` finds a recorded stub's file from the live request: a token's value
    /// must not change the name (the recording wrote it as "any value").
    @Test func relativePathIgnoresTokenValuesAsTheRecordingDid() throws {
        let folder = try RecordingFolder()
        let recorder = try StubRecorder(directory: folder.url)
        #expect(recorder.record(exchange("/feed?access_token=abc123&page=2", body: "f")) == .written("feed.q-access_token-page-2.json"))
        let live = StubRequest(method: "GET", url: URL(string: upstream + "/feed?access_token=other-secret&page=2")!)
        #expect(StubRecorder.relativePath(for: live, options: RecordingOptions()) == "feed.q-access_token-page-2.json")
        #expect(!folder.files.joined().contains("abc123"))
    }

    /// A recording of error answers says so: often the client forgot its credentials.
    @Test func theSummaryNamesRecordedErrorAnswers() throws {
        let folder = try RecordingFolder()
        let recorder = try StubRecorder(directory: folder.url)
        recorder.record(exchange("/", status: 401, headers: [HTTPHeader(name: "WWW-Authenticate", value: "Bearer")], body: "no"))
        recorder.record(exchange("/ok", body: "fine"))
        #expect(recorder.summary.errorAnswers == ["root.json": 401])
        #expect(recorder.summary.description.contains("1 recorded answer is an error: root.json (401); a 401 or 403 usually means the client sent no credentials"), "\(recorder.summary)")
    }

    /// Foundation joins repeated Set-Cookie fields with ", ": every cookie in them is masked,
    /// and an Expires date's comma does not start a cookie.
    @Test func everyCookieOfAJoinedSetCookieIsMasked() {
        let joined = "sid=s3cret-1; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT, csrf=s3cret-2; HttpOnly"
        #expect(RecordingRedactor.maskedCookie(joined) == "sid=REDACTED; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT, csrf=REDACTED; HttpOnly")
    }

    @Test func binaryBodiesAndXMLStubsServeTheSameBytes() throws {
        let folder = try RecordingFolder()
        let recorder = try StubRecorder(directory: folder.url, options: RecordingOptions(format: .xml))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])
        recorder.record(RecordedExchange(
            request: StubRequest(method: "GET", path: "/poster.png"),
            response: UpstreamResponse(status: 200, headers: [HTTPHeader(name: "Content-Type", value: "image/png")], body: png), upstream: upstream))
        recorder.record(exchange("/text", headers: [HTTPHeader(name: "Content-Type", value: "text/plain")], body: "  padded <&> ]]> text\n"))
        recorder.record(exchange("/links", headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: #"{"href":"http://api.upstream.test:8000/a"}"#))
        #expect(folder.files == ["links.body.json.mustache", "links.xml", "poster.png.body.png", "poster.png.xml", "text.xml"])
        let image = try serve(folder, "/poster.png", origin: "http://x.test")
        switch image.body {
        case .bytes(let data): #expect(data == png)
        case .file(let file): #expect(try Data(contentsOf: file.url) == png)
        }
        #expect(text(try serve(folder, "/text", origin: "http://x.test")) == "  padded <&> ]]> text\n")
        #expect(text(try serve(folder, "/links", origin: "http://x.test")) == #"{"href":"http://x.test/a"}"#)
    }
}
