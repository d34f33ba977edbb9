import APICheckModel
import APICheckServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stub `failure` codes as socket behaviour, seen from raw sockets and from URLSession.
@Suite struct SocketFaultTests {
    static let stubs = StubSet([
        stub("reset", "GET", "/reset", failure: .connectionReset),
        stub("refused", "GET", "/refused", failure: .cannotConnectToHost),
        stub("empty", "GET", "/empty", failure: .emptyResponse),
        stub("lost", "GET", "/lost", failure: .networkConnectionLost),
        stub("garbage", "GET", "/garbage", failure: .malformedResponse),
        stub("timeout", "GET", "/timeout", failure: .timedOut),
        stub("slow-reset", "GET", "/slow-reset", latency: StubLatency(request: 0.2), failure: .connectionReset),
        stub("ok", "GET", "/ok", body: "fine"),
    ])

    @Test func theMappingIsDocumentedBehaviour() {
        #expect(SocketFault(.connectionReset) == .reset)
        #expect(SocketFault(.cannotConnectToHost) == .reset)
        #expect(SocketFault(.dnsLookupFailed) == .reset)
        #expect(SocketFault(.notConnectedToInternet) == .reset)
        #expect(SocketFault(.emptyResponse) == .close)
        #expect(SocketFault(.networkConnectionLost) == .close)
        #expect(SocketFault(.malformedResponse) == .malformed)
        #expect(SocketFault(.badServerResponse) == .malformed)
        #expect(SocketFault(.timedOut) == .hold)
        // Every failure code has a behaviour.
        #expect(Set(StubFailure.allCases.map(SocketFault.init)) == Set(SocketFault.allCases))
    }

    private func outcome(_ port: Int, _ path: String) throws -> (bytes: [UInt8], end: ReadEnd) {
        let connection = try RawConnection(port: port, timeout: 3)
        try connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        return connection.readToEnd()
    }

    @Test func faultsOnTheWire() async throws {
        let configuration = testConfiguration { $0.limits.idleTimeout = .milliseconds(400) }
        try await withStubServer(Self.stubs, configuration: configuration) { server in
            let port = server.port
            try await blockingIO {
                let reset = try outcome(port, "/reset")
                #expect(reset.end == .reset && reset.bytes.isEmpty)
                #expect(try outcome(port, "/refused").end == .reset)
                let slow = try outcome(port, "/slow-reset")
                #expect(slow.end == .reset)

                let empty = try outcome(port, "/empty")
                #expect(empty.end == .eof && empty.bytes.isEmpty)
                #expect(try outcome(port, "/lost").end == .eof)

                let garbage = try outcome(port, "/garbage")
                #expect(garbage.end == .eof)
                #expect(!garbage.bytes.isEmpty && !garbage.bytes.starts(with: Array("HTTP/".utf8)))

                // Held silent until the idle timeout closes it.
                let start = ContinuousClock.now
                let held = try outcome(port, "/timeout")
                #expect(held.bytes.isEmpty && held.end == .eof)
                #expect(ContinuousClock.now - start >= .milliseconds(300))

                #expect(try rawGET(port, "/ok").text == "fine")
            }
            #expect(server.journal.requests(answeredBy: "reset").count == 1)
        }
    }

    @Test func urlSessionReportsTheFailures() async throws {
        let configuration = testConfiguration { $0.limits.idleTimeout = .seconds(5) }
        try await withStubServer(Self.stubs, configuration: configuration) { server in
            let session = testSession()
            for path in ["reset", "empty", "garbage"] {
                await #expect(throws: URLError.self, "\(path)") {
                    _ = try await session.data(from: server.url.appendingPathComponent(path))
                }
            }
            let short = URLSessionConfiguration.ephemeral
            short.timeoutIntervalForRequest = 0.5
            let impatient = URLSession(configuration: short)
            do {
                _ = try await impatient.data(from: server.url.appendingPathComponent("timeout"))
                Issue.record("the held request answered")
            } catch let error as URLError {
                #expect(error.code == .timedOut)
            }
            let (data, _) = try await session.data(from: server.url.appendingPathComponent("ok"))
            #expect(String(decoding: data, as: UTF8.self) == "fine")
        }
    }
}
