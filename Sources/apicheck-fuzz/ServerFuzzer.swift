import APICheckModel
import APICheckServer
import Foundation
import Logging
import NIOCore
import NIOEmbedded

/// `server`: raw bytes into one connection of the stub server, on an `EmbeddedChannel` with the
/// server's own pipeline (``ServerCore/addConnectionHandlers(to:)``: NIO's HTTP/1 decoder with the
/// configured limits, then `StubHTTPHandler`), serving a fixed set of stubs that covers literal,
/// template and glob paths, query/header/body constraints, a sequence, latency and failures.
///
/// The first byte sets the connection up: bit 0 CORS, bit 1 the peer half-closes after sending,
/// bit 2 small limits (256-byte heads, 8 fields, 64-byte bodies, 2 pipelined requests), bit 3 a
/// loopback peer (the admin API answers it), bits 4-7 × 3 the size of each write (0: one write).
/// The rest is what the client sends. Then an hour passes (latency, timeouts).
///
/// Invariants: the output is a sequence of well-formed HTTP/1.1 responses (status line with a
/// status of 100-599, `Name: value` header lines, a numeric `Content-Length` that the body has,
/// or nothing after a `HEAD`), no more answers than request lines, and the connection is closed
/// once the idle timeout has passed.
///
/// Not covered: `POST /__apicheck/reload`, which reloads on NIO's thread pool and completes on the
/// connection's loop (an `EmbeddedEventLoop` must only be used from its own thread); inputs that
/// could reach it (`reload` or `%` with `__apicheck`) get a peer the admin API refuses.
enum ServerFuzzer {
    static let stubs: StubSet = {
        var stubs: [Stub] = []
        func add(_ method: String?, _ path: String, _ status: Int = 200, body: String = "{}", query: [ValueConstraint] = [], headers: [ValueConstraint] = [],
                 bodyConstraints: [BodyConstraint] = [], responseHeaders: [HTTPHeader] = [], latency: StubLatency = .none, failure: StubFailure? = nil,
                 sequence: [Int]? = nil, cookies: [StubCookie] = [])
        {
            guard case .success(let pattern) = PathPattern.parse(path) else { FuzzCheck.fail("bad fixture path \(path)") }
            let response = StubResponse(
                status: status, headers: [HTTPHeader(name: "Content-Type", value: "application/json")] + responseHeaders, cookies: cookies,
                body: .bytes(Data(body.utf8)), latency: latency, failure: failure)
            let request = RequestPattern(method: method, path: pattern, query: query, headers: headers, body: bodyConstraints)
            var stub = Stub(id: "fuzz#\(stubs.count)", name: "\(method ?? "*") \(path)", request: request, response: response, source: SourceLocation(path: "fuzz", line: stubs.count + 1))
            if let sequence {
                stub.sequence = StubSequence(responses: sequence.map { StubResponse(status: $0, body: .bytes(Data("\($0)".utf8))) }, afterLast: .fail)
            }
            stubs.append(stub)
        }
        add("GET", "/movies", body: #"{"_links":{"self":{"href":"/movies"}}}"#, responseHeaders: [HTTPHeader(name: "Link", value: "<http://localhost:3000/movies?page=2>; rel=next")])
        add("GET", "/movies/{id}", body: #"{"id":1}"#)
        add("GET", "/posters/{id}.jpg", body: "jpg")
        add(nil, "/files/**", body: "file")
        add("GET", "/assets/*.css", body: "css")
        add("POST", "/orders", 201, bodyConstraints: [.jsonPointer(path: "/movieId", equals: "42")])
        add("POST", "/orders", 422, bodyConstraints: [.contains("bad")])
        add("PUT", "/upload", 204, body: "")
        add("GET", "/search", query: [ValueConstraint(name: "q", value: "alien")])
        add("GET", "/me", headers: [ValueConstraint(name: "Authorization")])
        add("GET", "/me", 401, body: #"{"title":"Unauthorized"}"#)
        add("GET", "/sequence", sequence: [200, 503])
        add("GET", "/slow", latency: StubLatency(request: 0.5, response: 0.25))
        add("GET", "/held", failure: .timedOut)
        add("GET", "/reset", failure: .connectionReset)
        add("GET", "/empty", failure: .emptyResponse)
        add("GET", "/moved", 301, body: "", responseHeaders: [HTTPHeader(name: "Location", value: "http://localhost:3000/movies")])
        add("GET", "/not-modified", 304, body: "")
        add("GET", "/cookie", cookies: [StubCookie(name: "session", value: "abc", path: "/", httpOnly: true, maxAge: 60, sameSite: .lax)])
        add("DELETE", "/movies/{id}", 204, body: "")
        return StubSet(stubs)
    }()

    static let logger = Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })
    static let baseURL = "http://127.0.0.1:8080"
    /// `http://localhost:3000` in bodies and link headers is rewritten to the server's origin.
    static let rewriters = [try? OriginRewriter(from: "http://localhost:3000", to: baseURL)].compactMap { $0 }

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let flags = input.byte()
        let bytes = Array(input.rest)
        var configuration = StubServer.Configuration(eventLoopThreads: 1, cors: flags & 1 != 0, journalCapacity: 64)
        if flags & 4 != 0 {
            configuration.limits = StubServer.Limits(maximumHeaderBytes: 256, maximumHeaderCount: 8, maximumBodyBytes: 64, maximumPipelinedRequests: 2)
        }
        let mayReachReload = contains(bytes, "__apicheck") && (contains(bytes, "reload") || bytes.contains(UInt8(ascii: "%")))
        let loopback = flags & 8 != 0 && !mayReachReload
        let core = ServerCore(
            stubs: stubs, source: nil, configuration: configuration, baseURL: baseURL, rewriters: rewriters, loops: [:], logger: logger)
        let channel = EmbeddedChannel()
        do {
            try core.addConnectionHandlers(to: channel)
            try channel.connect(to: SocketAddress(ipAddress: loopback ? "127.0.0.1" : "192.0.2.7", port: 40_000)).wait()
        } catch {
            FuzzCheck.fail("cannot set up the connection: \(error)")
        }

        var output = feed(bytes, step: Int(flags >> 4) * 3, to: channel)
        if flags & 2 != 0, channel.isActive {
            channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }
        channel.embeddedEventLoop.advanceTime(by: .seconds(3600))
        output += written(by: channel)
        FuzzCheck.require(!channel.isActive, "the connection is still open an hour after its last read")
        _ = try? channel.finish(acceptAlreadyClosed: true)

        let answers = checkResponses(output)
        let requestLines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        FuzzCheck.require(answers <= requestLines, "\(answers) answers to at most \(requestLines) requests")
    }

    /// Writes `bytes` into the channel `step` bytes at a time (all at once for 0) while it is
    /// open; returns what it wrote back.
    static func feed(_ bytes: [UInt8], step: Int, to channel: EmbeddedChannel) -> [UInt8] {
        var output: [UInt8] = []
        var offset = 0
        while offset < bytes.count, channel.isActive {
            let end = step == 0 ? bytes.count : min(bytes.count, offset + step)
            // A closed or failing pipeline reports through its own answers; the write's error is not ours to check.
            _ = try? channel.writeInbound(ByteBuffer(bytes: bytes[offset..<end]))
            output += written(by: channel)
            offset = end
        }
        return output
    }

    /// What the channel has written since last asked (never a file region: the fuzzer must see the bytes).
    static func written(by channel: EmbeddedChannel) -> [UInt8] {
        var output: [UInt8] = []
        while let part = try? channel.readOutbound(as: IOData.self) {
            guard case .byteBuffer(let buffer) = part else { FuzzCheck.fail("a file region was written") }
            output += buffer.readableBytesView
        }
        return output
    }

    /// Walks the responses; returns how many there are.
    static func checkResponses(_ output: [UInt8]) -> Int {
        var index = 0
        var count = 0
        let prefix = Array("HTTP/1.1 ".utf8)
        while index < output.count {
            guard output[index...].starts(with: prefix) else {
                FuzzCheck.fail("response \(count + 1) does not start with a status line: \(excerpt(output[index...]))")
            }
            guard let headEnd = firstIndex(of: [0x0D, 0x0A, 0x0D, 0x0A], in: output, from: index) else {
                FuzzCheck.fail("response \(count + 1) has no end of head: \(excerpt(output[index...]))")
            }
            let head = String(decoding: output[index..<headEnd], as: UTF8.self)
            let lines = head.components(separatedBy: "\r\n")
            let status = Int(lines[0].dropFirst(9).prefix(3)) ?? 0
            FuzzCheck.require((100...599).contains(status) && lines[0].utf8.count >= 13, "bad status line: \(lines[0])")
            var length: Int?
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { FuzzCheck.fail("bad header line: \(line)") }
                let name = line[..<colon].lowercased()
                FuzzCheck.require(!name.contains(" ") && !line.contains("\r") && !line.contains("\n"), "bad header line: \(line)")
                if name == "content-length" {
                    guard let value = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)), value >= 0 else {
                        FuzzCheck.fail("bad Content-Length: \(line)")
                    }
                    FuzzCheck.require(length == nil, "two Content-Length fields")
                    length = value
                }
            }
            index = headEnd + 4
            count += 1
            guard status >= 200, let length, length > 0 else { continue }
            // After a HEAD the next response (or nothing) follows at once.
            if index == output.count || output[index...].starts(with: prefix) { continue }
            FuzzCheck.require(index + length <= output.count, "a body shorter than its Content-Length \(length)")
            index += length
        }
        return count
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        firstIndex(of: Array(text.utf8), in: bytes, from: 0) != nil
    }

    static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count) where bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }

    static func excerpt(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix(120), as: UTF8.self).debugDescription
    }
}
