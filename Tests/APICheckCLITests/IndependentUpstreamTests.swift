import APICheckJSON
import Foundation
import Testing

/// `apicheck record` against an upstream written without APICheck (Upstream/hypermedia_upstream.py,
/// Python's standard library only), so the recorder is not tested only against `apicheck serve`:
/// a real hypermedia API round-trips byte for byte, and hostile answers never leave a half file.
@Suite(.serialized, .enabled(if: PythonUpstream.python != nil, "python3 is not on PATH: the independent upstream cannot run"))
struct IndependentUpstreamTests {
    typealias ServeProcess = ServeCommandTests.ServeProcess
    typealias Folder = RecordVerifyTests.Folder

    /// Every resource the upstream serves; the crawl reaches each of them from `/`.
    static let paths = [
        "/", "/items", "/items?page=2", "/items/1", "/items/2", "/logo.png", "/readme.txt", "/report", "/greeting",
        "/measurements", "/old-home", "/gone",
    ]

    /// Recorded through the proxy by a crawl, linted, served again: every resource answers the same
    /// status, Content-Type and bytes (the upstream's origin replaced by the server's), and a crawl
    /// of the recording finds what a crawl of the live upstream finds.
    @Test func recordingAnIndependentUpstreamReproducesItByteForByte() throws {
        let upstream = try PythonUpstream()
        let recording = try Folder()
        let proxy = try ServeProcess([upstream.baseURL, "--to", recording.path, "--port", "0"], command: "record")
        try proxy.waitUntilListening()
        let throughProxy = try CLI.run(["crawl", proxy.baseURL + "/", "--format", "json"])
        #expect(throughProxy.status == 1, "the upstream has seeded findings: \(throughProxy.stdout.prefix(500)) \(throughProxy.stderr)")
        // The crawl alone recorded every resource (a stub is written before its answer is sent).
        let written = try recordedFiles(recording)
        let stubs = ["root", "items", "items.q-page-2", "items/1", "items/2", "logo.png", "readme.txt", "report", "greeting", "measurements", "old-home", "gone"]
        #expect(Set(stubs.map { $0 + ".json" }).isSubset(of: written.keys), "\(written.keys.sorted())")
        #expect(written["root.body.json.mustache"]?.contains("{{baseURL}}/items") == true, "links are templated: \(written.keys.sorted())")
        #expect(!written.values.contains { $0.contains("v-8812") }, "the Set-Cookie value is never written")
        // The proxy answers as the upstream does, with its own origin in links.
        for path in Self.paths {
            let live = try RawHTTP.get(upstream.baseURL + path)
            let proxied = try RawHTTP.get(proxy.baseURL + path)
            expectSame(proxied, as: live, origin: upstream.baseURL, replacedBy: proxy.baseURL, path)
        }
        #expect(proxy.stop(SIGINT) == 0)
        #expect(proxy.errors.contains(" written"), "\(proxy.errors)")

        let lint = try CLI.run(["lint", recording.path])
        #expect(lint.status == 0, "\(lint.stdout) \(lint.stderr)")
        let served = try ServeProcess([recording.path, "--port", "0"])
        try served.waitUntilListening()
        for path in Self.paths {
            let live = try RawHTTP.get(upstream.baseURL + path)
            let replayed = try RawHTTP.get(served.baseURL + path)
            expectSame(replayed, as: live, origin: upstream.baseURL, replacedBy: served.baseURL, path)
        }

        let liveCrawl = try CLI.run(["crawl", upstream.baseURL + "/", "--format", "json"])
        let servedCrawl = try CLI.run(["crawl", served.baseURL + "/", "--format", "json"])
        let liveFindings = try findings(liveCrawl.stdout, origin: upstream.baseURL)
        #expect(liveFindings.contains { $0.contains("type-matches") && $0.contains("ORIGIN/report") }, "\(liveFindings)")
        #expect(liveFindings.contains { $0.contains("link-resolves") && $0.contains("ORIGIN/gone") }, "\(liveFindings)")
        #expect(try findings(servedCrawl.stdout, origin: served.baseURL) == liveFindings)
        #expect(served.stop() == 0)
    }

    // MARK: Hostile upstreams

    /// A redirect to another host is the client's business: passed on as the 302 (not followed,
    /// never fetched), recorded as it is (another origin is not templated), served again alike.
    @Test func aRedirectToAnotherHostIsPassedOnAndRecordedAsItIs() throws {
        let written = try withHostileProxy { _, proxy, recording in
            let answer = try RawHTTP.get(proxy.baseURL + "/hostile/elsewhere")
            #expect(answer.status == 302)
            #expect(answer.header("Location") == "http://127.0.0.2:1/elsewhere")
            #expect(try replay(recording, "/hostile/elsewhere").header("Location") == "http://127.0.0.2:1/elsewhere")
        }
        let stub = try #require(written.files["hostile/elsewhere.json"])
        #expect(stub.contains("http://127.0.0.2:1/elsewhere") && !stub.contains("{{baseURL}}"), "\(stub)")
    }

    /// A 5 MiB answer over `--max-upstream-body 1M` is a 502, not a truncated body; nothing is written.
    @Test func aBodyOverTheLimitIsA502AndWritesNothing() throws {
        let written = try withHostileProxy { _, proxy, _ in
            let answer = try RawHTTP.get(proxy.baseURL + "/hostile/huge")
            expectBadGateway(answer, mentioning: "limit")
        }
        #expect(!written.files.keys.contains { $0.contains("huge") }, "\(written.files.keys.sorted())")
    }

    /// A body that drips a byte every half second (10 s for all of it) is a 502 once `--timeout 2`
    /// is up, not whenever the upstream finishes; nothing is written and the proxy serves on.
    @Test func aSlowDripIsA502AfterTheTimeoutAndWritesNothing() throws {
        let written = try withHostileProxy { _, proxy, _ in
            let start = ContinuousClock.now
            let answer = try RawHTTP.get(proxy.baseURL + "/hostile/drip", timeout: 30)
            let elapsed = ContinuousClock.now - start
            expectBadGateway(answer, mentioning: "timeout")
            // The whole drip takes 10 s; the timeout is 2 s (generous bound for a loaded machine).
            #expect(elapsed < .seconds(8), "answered after \(elapsed)")
        }
        #expect(!written.files.keys.contains { $0.contains("drip") }, "\(written.files.keys.sorted())")
    }

    /// A connection reset after 10 of 1000 promised bytes is a 502; nothing is written.
    @Test func aResetMidBodyIsA502AndWritesNothing() throws {
        let written = try withHostileProxy { _, proxy, _ in
            expectBadGateway(try RawHTTP.get(proxy.baseURL + "/hostile/reset"), mentioning: "reset")
        }
        #expect(!written.files.keys.contains { $0.contains("reset") }, "\(written.files.keys.sorted())")
    }

    /// Invalid UTF-8 declared as UTF-8 JSON is passed on byte for byte and recorded so that the
    /// recording serves the same bytes. One that names the upstream's origin cannot become a
    /// template (templates are text): its recording keeps the origin, and the summary says so.
    @Test func invalidUTF8IsPassedOnAndReplayedByteForByte() throws {
        var upstreamOrigin = ""
        let recorded = try withHostileProxy { upstream, proxy, recording in
            upstreamOrigin = upstream.baseURL
            let live = try RawHTTP.get(upstream.baseURL + "/hostile/bad-utf8")
            #expect(String(validating: live.body, as: UTF8.self) == nil, "the fixture is invalid UTF-8")
            let proxied = try RawHTTP.get(proxy.baseURL + "/hostile/bad-utf8")
            expectSame(proxied, as: live, origin: upstream.baseURL, replacedBy: proxy.baseURL, "bad-utf8 through the proxy")
            expectSame(try replay(recording, "/hostile/bad-utf8"), as: live, origin: "", replacedBy: "", "bad-utf8 replayed")

            let linked = try RawHTTP.get(upstream.baseURL + "/hostile/bad-utf8-linked")
            expectSame(try RawHTTP.get(proxy.baseURL + "/hostile/bad-utf8-linked"), as: linked, origin: upstream.baseURL, replacedBy: proxy.baseURL, "bad-utf8-linked through the proxy")
            expectSame(try replay(recording, "/hostile/bad-utf8-linked"), as: linked, origin: "", replacedBy: "", "bad-utf8-linked replayed")
        }
        #expect(recorded.files.contains { $0.key.hasPrefix("hostile/bad-utf8-linked.body") && $0.value.contains(upstreamOrigin + "/items") })
        #expect(recorded.log.contains("origin left literal"), "\(recorded.log)")
    }

    /// An upstream that compresses when asked (as AsyncHTTPClient asks): the proxy's client and
    /// the recording get the decoded bytes, never labelled with the coding they no longer have.
    @Test func aCompressedAnswerIsPassedOnAndRecordedDecoded() throws {
        let recorded = try withHostileProxy { upstream, proxy, recording in
            let live = try RawHTTP.get(upstream.baseURL + "/hostile/gzip")
            #expect(live.header("Content-Encoding") == nil, "a client that does not ask gets identity")
            let proxied = try RawHTTP.get(proxy.baseURL + "/hostile/gzip")
            #expect(proxied.header("Content-Encoding") == nil, "\(proxied.headers)")
            expectSame(proxied, as: live, origin: upstream.baseURL, replacedBy: proxy.baseURL, "gzip through the proxy")
            let replayed = try replay(recording, "/hostile/gzip")
            #expect(replayed.header("Content-Encoding") == nil)
            #expect(replayed.text.contains(#""compressed":true"#), "\(replayed.text.prefix(100))")
        }
        #expect(recorded.files.contains { $0.key.hasPrefix("hostile/gzip") && !$0.value.contains("Content-Encoding") })
    }

    /// `verify` against the same hostile upstream: it ends within its --timeout, and every
    /// failure is reported with the request it concerns; a limit is a warning, never silence.
    @Test func verifyAgainstAHostileUpstreamReportsEachFailureWithItsRequest() throws {
        let upstream = try PythonUpstream()
        let stubs = try Folder()
        for name in ["drip", "reset", "huge", "bad-utf8", "items-1"] {
            let path = name == "items-1" ? "/items/1" : "/hostile/" + name
            try stubs.write(name + ".json", #"{"request": {"path": "\#(path)"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": {"a": 1}}}"#)
        }
        let started = ContinuousClock.now
        let verify = try CLI.run(["verify", stubs.path, "--against", upstream.baseURL, "--timeout", "2", "--max-body", "100000", "--format", "json"])
        #expect(ContinuousClock.now - started < .seconds(8), "the drip is bounded by --timeout")
        #expect(verify.status == 2, "no answer from two endpoints is an infrastructure error: \(verify.stderr)")
        let report = try JSONParser().parseValue(Array(verify.stdout.utf8))
        let errors = "\(report["errors"] ?? .null)"
        #expect(errors.contains(upstream.baseURL + "/hostile/drip") && errors.contains("timeout"), "\(errors)")
        #expect(errors.contains(upstream.baseURL + "/hostile/reset") && errors.contains("reset"), "\(errors)")
        guard case .array(let findings)? = report["findings"] else {
            Issue.record("no findings: \(verify.stdout.prefix(400))")
            return
        }
        func finding(_ path: String) -> JSONValue? { findings.first { $0["url"] == .string(upstream.baseURL + path) && $0["rule"] == "drift-shape" } }
        #expect(finding("/hostile/huge")?["severity"] == "warning", "a body over --max-body is a warning that says so")
        #expect("\(finding("/hostile/huge")?["message"] ?? .null)".contains("--max-body"))
        #expect("\(finding("/hostile/bad-utf8")?["message"] ?? .null)".contains("the live body is not"), "\(findings)")
    }

    /// PNG bytes declared text/plain and JSON declared text/html: the same bytes and the same
    /// (wrong) Content-Type come back from the proxy and from the recording.
    @Test(arguments: ["/hostile/png-as-text", "/hostile/json-as-html"])
    func aLyingContentTypeIsKeptWithItsBytes(path: String) throws {
        try withHostileProxy { upstream, proxy, recording in
            let live = try RawHTTP.get(upstream.baseURL + path)
            expectSame(try RawHTTP.get(proxy.baseURL + path), as: live, origin: upstream.baseURL, replacedBy: proxy.baseURL, path)
            expectSame(try replay(recording, path), as: live, origin: "", replacedBy: "", "\(path) replayed")
        }
    }

    /// Clients that go away mid-answer (one before any byte, one after the head and a little of a
    /// 768 KiB body, with a reset) leave no half-written or temporary file, and the proxy serves on.
    @Test func aClientGoingAwayMidAnswerLeavesNoHalfFile() throws {
        let size = 8 * 96 * 1024
        let written = try withHostileProxy { _, proxy, recording in
            try RawHTTP.abandon(proxy.baseURL + "/hostile/big-slow-early", afterReading: 0)
            try RawHTTP.abandon(proxy.baseURL + "/hostile/big-slow-late", afterReading: 1000)
            // The upstream's answer to the early one is still on its way: wait for it to settle.
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, (try recordedFiles(recording)).keys.filter({ $0.contains("big-slow") }).count < 4 {
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        // The recorder writes an answer before the proxy sends it: both are recorded, whole.
        let bodies = written.files.filter { $0.key.hasPrefix("hostile/big-slow") && !$0.key.hasSuffix(".json") }
        #expect(bodies.count == 2, "\(written.files.keys.sorted())")
        for (name, contents) in bodies {
            #expect(contents.utf8.count == size, "\(name) has \(contents.utf8.count) bytes")
        }
    }

    // MARK: Helpers

    /// Starts the upstream and `apicheck record --timeout 2 --max-upstream-body 1M`, runs `body`,
    /// then checks the proxy survived (a normal request is answered, SIGINT exits 0), no temporary
    /// file is left and the recording lints clean. Returns the recorded files and their text.
    @discardableResult
    private func withHostileProxy(
        _ body: (PythonUpstream, ServeProcess, Folder) throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (files: [String: String], log: String) {
        let upstream = try PythonUpstream()
        let recording = try Folder()
        let proxy = try ServeProcess(
            [upstream.baseURL, "--to", recording.path, "--port", "0", "--timeout", "2", "--max-upstream-body", "1M"], command: "record")
        try proxy.waitUntilListening()
        try body(upstream, proxy, recording)
        let normal = try RawHTTP.get(proxy.baseURL + "/items/1")
        #expect(normal.status == 200, "the proxy answers normally afterwards: \(normal.text)", sourceLocation: sourceLocation)
        #expect(normal.text.contains(proxy.baseURL + "/items/1"), sourceLocation: sourceLocation)
        #expect(proxy.stop(SIGINT) == 0, "\(proxy.errors)", sourceLocation: sourceLocation)
        let written = try recordedFiles(recording)
        #expect(written.keys.contains("items/1.json"), "\(written.keys.sorted())", sourceLocation: sourceLocation)
        let temporary = written.keys.filter { name in
            name.split(separator: "/").contains { $0.hasPrefix(".") } || name.hasSuffix(".tmp") || name.contains(".probe-")
        }
        #expect(temporary.isEmpty, "temporary files left: \(temporary)", sourceLocation: sourceLocation)
        let lint = try CLI.run(["lint", recording.path])
        #expect(lint.status == 0, "\(lint.stdout) \(lint.stderr)", sourceLocation: sourceLocation)
        return (written, proxy.errors)
    }

    /// `path` from `apicheck serve` of the recording so far.
    private func replay(_ recording: Folder, _ path: String) throws -> RawHTTP.Response {
        let served = try ServeProcess([recording.path, "--port", "0"])
        try served.waitUntilListening()
        defer { _ = served.stop() }
        return try RawHTTP.get(served.baseURL + path)
    }

    /// Every file under the folder (hidden ones too), relative path → contents (lossy UTF-8).
    private func recordedFiles(_ folder: Folder) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            var isDirectory: ObjCBool = false
            let path = folder.url.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[name] = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        }
        return files
    }

    private func expectSame(
        _ answer: RawHTTP.Response, as live: RawHTTP.Response, origin: String, replacedBy replacement: String, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(answer.status == live.status, "\(what): status", sourceLocation: sourceLocation)
        #expect(answer.header("Content-Type") == live.header("Content-Type"), "\(what): Content-Type", sourceLocation: sourceLocation)
        for name in ["Location", "Link"] {
            let expected = origin.isEmpty ? live.header(name) : live.header(name).map { $0.replacingOccurrences(of: origin, with: replacement) }
            #expect(answer.header(name) == expected, "\(what): \(name)", sourceLocation: sourceLocation)
        }
        let expected = origin.isEmpty ? live.body : RawHTTP.replacing(Array(origin.utf8), with: Array(replacement.utf8), in: live.body)
        #expect(answer.body == expected, "\(what): body \(answer.text.prefix(300)) ≠ \(String(decoding: expected, as: UTF8.self).prefix(300))", sourceLocation: sourceLocation)
    }

    private func expectBadGateway(_ answer: RawHTTP.Response, mentioning word: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == 502, "\(answer.status) \(answer.text.prefix(300))", sourceLocation: sourceLocation)
        #expect(answer.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
        #expect(word.isEmpty || answer.text.contains(word), "\(answer.text)", sourceLocation: sourceLocation)
    }

    /// Rule, method and URL of each finding, origins written as ORIGIN.
    private func findings(_ report: String, origin: String) throws -> [String] {
        let value = try JSONParser().parseValue(Array(report.utf8))
        return CrawlOverServeTests.findings(value).map { $0.replacingOccurrences(of: origin, with: "ORIGIN") }
    }
}

/// Upstream/hypermedia_upstream.py, run with python3 on a free port; terminated when released.
final class PythonUpstream {
    /// python3 from PATH, or `nil`.
    static let python: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Upstream/hypermedia_upstream.py")

    let process = Process()
    /// Standard output goes to a file, as `ServeProcess`'s does: a `Pipe` held by a test while
    /// SwiftNIO opens sockets in the same process crashed CI once (a descriptor closed twice, an
    /// event loop's `epoll_ctl` then failing with EBADF).
    private let output = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-upstream-\(UUID().uuidString).out")
    private(set) var baseURL = ""

    /// `script` with `arguments`; its first line of output is `Listening on ORIGIN` (any case).
    init(script: URL = PythonUpstream.script, arguments: [String] = []) throws {
        guard let python = Self.python else { throw ServeCommandTests.ServeTestError(description: "python3 is not on PATH") }
        FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = python
        process.arguments = [script.path] + arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        // The first line names the origin; nothing else is printed.
        let deadline = ContinuousClock.now + .seconds(20)
        var text = ""
        while ContinuousClock.now < deadline, process.isRunning {
            text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if text.contains("\n") { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.lowercased().hasPrefix("listening on http://127.0.0.1:") else {
            throw ServeCommandTests.ServeTestError(description: "the python upstream did not start: '\(text)'")
        }
        baseURL = String(text.dropFirst("Listening on ".count))
    }

    deinit {
        // SIGKILL: a child started from a test's thread inherits its blocked signals, and python
        // leaves SIGTERM blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: output)
    }
}

/// A minimal HTTP/1.1 client on a POSIX socket: the exact bytes of an answer, no redirects
/// followed, no decoding, `Connection: close` and read to the end.
enum RawHTTP {
    struct Response {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]
        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func get(_ url: String, timeout: Int = 20) throws -> Response {
        let (port, target) = try split(url)
        let socket = try open(port: port, timeout: timeout)
        defer { close(socket) }
        try sendAll(socket, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { break }
            guard count > 0 else { throw Failure(description: "GET \(url): \(String(cString: strerror(errno))) after \(bytes.count) bytes") }
            bytes += buffer[0..<count]
        }
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: Array("\r\n\r\n".utf8)) }) else {
            throw Failure(description: "GET \(url): no complete head in \(bytes.count) bytes")
        }
        var lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "GET \(url): bad status line") }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let response = Response(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
        if let length = response.header("Content-Length").flatMap(Int.init), length != response.body.count {
            throw Failure(description: "GET \(url): Content-Length \(length) but \(response.body.count) bytes")
        }
        return response
    }

    /// Sends a GET and goes away: after `afterReading` bytes of the answer (0: after a moment,
    /// before any), with a reset (SO_LINGER 0) rather than an orderly close.
    static func abandon(_ url: String, afterReading limit: Int) throws {
        let (port, target) = try split(url)
        let socket = try open(port: port, timeout: 20)
        defer { close(socket) }
        try sendAll(socket, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        if limit == 0 {
            Thread.sleep(forTimeInterval: 0.2)
        } else {
            var read = 0
            var buffer = [UInt8](repeating: 0, count: 512)
            while read < limit {
                let count = recv(socket, &buffer, min(buffer.count, limit - read), 0)
                guard count > 0 else { throw Failure(description: "GET \(url): the answer ended after \(read) bytes") }
                read += count
            }
        }
        var reset = linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
    }

    /// `origin` replaced by `replacement` wherever it occurs in `bytes`.
    static func replacing(_ origin: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        guard !origin.isEmpty else { return bytes }
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == origin[0], bytes[index...].starts(with: origin) {
                result += replacement
                index += origin.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    private static func split(_ url: String) throws -> (port: Int, target: String) {
        let prefix = "http://127.0.0.1:"
        guard url.hasPrefix(prefix) else { throw Failure(description: "\(url) is not on 127.0.0.1") }
        let rest = url.dropFirst(prefix.count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        guard let port = Int(rest[..<slash]) else { throw Failure(description: "\(url) has no port") }
        return (port, slash == rest.endIndex ? "/" : String(rest[slash...]))
    }

    static func open(port: Int, timeout: Int) throws -> Int32 {
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        return fd
    }

    static func sendAll(_ fd: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        guard sent == bytes.count else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
    }
}
