import APICheckModel
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import APICheckServer

/// `StubHTTPHandler` on an `EmbeddedChannel`: bytes in, bytes out, time advanced by hand; no
/// sockets, no threads.
@Suite struct StubHTTPHandlerEmbeddedTests {
    final class Connection {
        let channel = EmbeddedChannel()
        let core: ServerCore

        init(_ stubs: [Stub], stopping: Bool = false, _ change: (inout StubServer.Configuration) -> Void = { _ in }) throws {
            var configuration = StubServer.Configuration()
            change(&configuration)
            core = ServerCore(
                stubs: StubSet(stubs), source: nil, configuration: configuration, baseURL: "http://127.0.0.1:8080", rewriters: [], loops: [:],
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .drop)))
            try pipeline.addHandler(StubHTTPHandler(core: core, loopState: core.loopState(for: channel.embeddedEventLoop)))
            if stopping { core.stopping.store(true, ordering: .releasing) }
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40_000)).wait()
        }

        deinit {
            // An open channel and its pipeline hold each other (and the handler, the core, its
            // stubs): LeakSanitizer reported all of it after the tests the handler did not close.
            _ = try? channel.finish()
        }

        func send(_ text: String) throws {
            try channel.writeInbound(ByteBuffer(string: text))
        }

        /// Everything written so far.
        func written() throws -> String {
            var text = ""
            while let part = try channel.readOutbound(as: IOData.self) {
                if case .byteBuffer(let buffer) = part { text += String(buffer: buffer) }
            }
            return text
        }

        /// The status lines written, in order.
        func statuses(in text: String) -> [String] {
            // A status line may follow the previous body directly.
            text.components(separatedBy: "\r\n").compactMap { line in
                line.range(of: "HTTP/1.1 ").map { String(line[$0.lowerBound...]) }
            }
        }
    }

    @Test func pipelinedRequestsInOneReadAreAnsweredInOrder() throws {
        let connection = try Connection([stub("a", "GET", "/a", body: "first"), stub("b", "GET", "/b", status: 201, body: "second")])
        try connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\nGET /c HTTP/1.1\r\nHost: x\r\n\r\n")
        let text = try connection.written()
        #expect(connection.statuses(in: text) == ["HTTP/1.1 200 OK", "HTTP/1.1 201 Created", "HTTP/1.1 404 Not Found"])
        let first = try #require(text.range(of: "first")), second = try #require(text.range(of: "second"))
        #expect(first.lowerBound < second.lowerBound)
        #expect(connection.channel.isActive, "keep-alive")
        #expect(connection.core.responder.journal.count == 3)
    }

    @Test func aConnectionThatBecomesActiveWhileTheServerStopsClosesAtOnce() throws {
        let connection = try Connection([stub("a", "GET", "/a", body: "first")], stopping: true)
        #expect(!connection.channel.isActive)
        let running = try Connection([stub("a", "GET", "/a", body: "first")])
        #expect(running.channel.isActive)
    }

    @Test func aPipelinedPreflightIsAnsweredInItsTurn() throws {
        let connection = try Connection([stub("slow", "GET", "/slow", body: "slow", latency: StubLatency(request: 1))]) { $0.cors = true }
        try connection.send(
            "GET /slow HTTP/1.1\r\nHost: x\r\nOrigin: http://app.test\r\n\r\n"
                + "OPTIONS /slow HTTP/1.1\r\nHost: x\r\nOrigin: http://app.test\r\nAccess-Control-Request-Method: GET\r\n\r\n")
        #expect(try connection.written().isEmpty, "the preflight waits for the answer before it")
        connection.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        let text = try connection.written()
        #expect(connection.statuses(in: text) == ["HTTP/1.1 200 OK", "HTTP/1.1 204 No Content"])
        #expect(text.contains("Access-Control-Allow-Origin: http://app.test"))
    }

    @Test func aLatencyStubHoldsTheRequestsBehindItUntilItIsAnswered() throws {
        let connection = try Connection([stub("slow", "GET", "/slow", body: "slow", latency: StubLatency(request: 1)), stub("fast", "GET", "/fast", body: "fast")])
        try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.written().isEmpty, "nothing before the latency has passed")
        connection.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        let text = try connection.written()
        #expect(connection.statuses(in: text).count == 2)
        #expect((text.range(of: "slow")?.lowerBound)! < (text.range(of: "fast")?.lowerBound)!)
    }

    @Test func expectContinueGetsItsInterimAnswerBeforeTheBody() throws {
        let connection = try Connection([stub("upload", "PUT", "/upload", body: "stored")])
        try connection.send("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        #expect(try connection.written() == "HTTP/1.1 100 Continue\r\n\r\n")
        try connection.send("data")
        #expect(connection.statuses(in: try connection.written()) == ["HTTP/1.1 200 OK"])
    }

    @Test func anOversizedBodyIs413ThenTheConnectionCloses() throws {
        let connection = try Connection([stub("upload", "PUT", "/upload")]) { $0.limits.maximumBodyBytes = 8 }
        try connection.send("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
        let text = try connection.written()
        #expect(connection.statuses(in: text) == ["HTTP/1.1 413 Payload Too Large"])
        #expect(text.contains("Connection: close"))
        #expect(text.contains("application/problem+json"))
        // Lingering: it reads and drops what the peer still sends for a while, then closes.
        connection.channel.embeddedEventLoop.advanceTime(by: .seconds(3))
        #expect(!connection.channel.isActive)
    }

    @Test func anIdleConnectionClosesAfterTheTimeoutAndNotBefore() throws {
        let connection = try Connection([stub("a", "GET", "/a")]) { $0.limits.idleTimeout = .seconds(5) }
        try connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try connection.written()
        connection.channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        #expect(connection.channel.isActive)
        connection.channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!connection.channel.isActive)
    }

    @Test func aHalfClosedPeerGetsItsAnswersAndThenTheConnectionCloses() throws {
        let connection = try Connection([stub("slow", "GET", "/slow", body: "slow", latency: StubLatency(request: 1))])
        try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        connection.channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(connection.channel.isActive, "an answer is still owed")
        connection.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        let text = try connection.written()
        #expect(connection.statuses(in: text) == ["HTTP/1.1 200 OK"])
        #expect(text.hasSuffix("slow"), "the whole answer, then the close")
        #expect(!connection.channel.isActive)
    }

    @Test func aTimedOutStubHoldsTheConnectionSilentUntilTheIdleTimeout() throws {
        let connection = try Connection([stub("held", "GET", "/held", failure: .timedOut)]) { $0.limits.idleTimeout = .seconds(5) }
        try connection.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\nGET /held HTTP/1.1\r\nHost: x\r\n\r\n")
        connection.channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        #expect(try connection.written().isEmpty)
        #expect(connection.channel.isActive)
        connection.channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!connection.channel.isActive)
    }
}
