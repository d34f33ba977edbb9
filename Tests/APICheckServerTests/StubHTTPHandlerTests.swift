import APICheckJSON
import APICheckModel
import APICheckServer
import Foundation
import Testing

/// Bad input and load on real sockets: the server answers what it can, closes what it must, and
/// keeps serving everyone else.
@Suite struct StubHTTPHandlerTests {
    static let stubs = StubSet([
        stub("ok", "GET", "/ok", body: "fine"),
        stub("echo", "POST", "/upload", body: "stored"),
    ])

    /// After each attack the server still answers a normal request.
    private func expectHealthy(_ server: StubServer) throws {
        let response = try rawGET(server.port, "/ok")
        #expect(response.status == 200)
        #expect(response.text == "fine")
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET / HTTP/1.1\r\nBad Header Without Colon\r\n\r\n",
        "GET /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
        "GET /ok HTTP/9.9\r\nHost: x\r\n\r\n",
        "\u{0}\u{1}\u{2}\u{3}\r\n\r\n",
        "GET /ok HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ])
    func malformedRequestsGet400AndAClosedConnection(request: String) async throws {
        try await withStubServer(Self.stubs, configuration: testConfiguration()) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                try connection.send(request)
                let response = try connection.readResponse()
                #expect([400, 505].contains(response.status), "\(request.debugDescription): \(response.statusLine)")
                #expect(response.header("Connection") == "close")
                #expect(response.header("Content-Type") == "application/problem+json")
                #expect([.eof, .reset].contains(connection.readToEnd().end))
                try expectHealthy(server)
            }
        }
    }

    @Test func aMalformedRequestAfterAGoodOneStillGetsTheGoodAnswerFirst() async throws {
        try await withStubServer(Self.stubs, configuration: testConfiguration()) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\nNOT HTTP AT ALL\r\n\r\n")
                #expect(try connection.readResponse().text == "fine")
                #expect(try connection.readResponse().status == 400)
            }
        }
    }

    @Test func oversizedHeadersGet431() async throws {
        try await withStubServer(Self.stubs, configuration: testConfiguration()) { server in
            try await blockingIO {
                for request in [
                    "GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n",
                    "GET /ok HTTP/1.1\r\nHost: x\r\n" + (0..<200).map { "X-H\($0): v\r\n" }.joined() + "\r\n",
                    "GET /\(String(repeating: "p", count: 17_000)) HTTP/1.1\r\nHost: x\r\n\r\n",
                ] {
                    let connection = try RawConnection(port: server.port)
                    try? connection.send(request)
                    let response = try connection.readResponse()
                    #expect(response.status == 431)
                    #expect(response.header("Connection") == "close")
                }
                try expectHealthy(server)
            }
        }
    }

    @Test func oversizedBodiesGet413BeforeOrWhileReading() async throws {
        let configuration = testConfiguration { $0.limits.maximumBodyBytes = 1024 }
        try await withStubServer(Self.stubs, configuration: configuration) { server in
            try await blockingIO {
                // Declared too large: refused before the body is read (with 100-continue, never sent).
                let declared = try RawConnection(port: server.port)
                try declared.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10485760\r\nExpect: 100-continue\r\n\r\n")
                let refused = try declared.readResponse()
                #expect(refused.status == 413)
                #expect(refused.text.contains("over the limit of 1024 bytes"))

                // Chunked, growing past the limit while read.
                let chunked = try RawConnection(port: server.port)
                try chunked.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                for _ in 0..<3 { try? chunked.send("200\r\n\(String(repeating: "z", count: 512))\r\n") }
                #expect(try chunked.readResponse().status == 413)

                // At the limit is fine.
                let fits = try RawConnection(port: server.port)
                try fits.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1024\r\n\r\n" + String(repeating: "y", count: 1024))
                #expect(try fits.readResponse().text == "stored")
                try expectHealthy(server)
            }
        }
    }

    @Test func slowAndSilentClientsAreClosedByTheIdleTimeout() async throws {
        let configuration = testConfiguration { $0.limits.idleTimeout = .milliseconds(300) }
        try await withStubServer(Self.stubs, configuration: configuration) { server in
            try await blockingIO {
                let silent = try RawConnection(port: server.port)
                let partial = try RawConnection(port: server.port)
                try partial.send("GET /ok HTTP/1.1\r\nHo")
                let keptAlive = try RawConnection(port: server.port)
                try keptAlive.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try keptAlive.readResponse().text == "fine")
                let start = ContinuousClock.now
                for connection in [silent, partial, keptAlive] {
                    #expect(connection.readToEnd().end == .eof)
                }
                let waited = ContinuousClock.now - start
                #expect(waited >= .milliseconds(200) && waited < .seconds(3), "\(waited)")
                try expectHealthy(server)
            }
            // The registry forgets them.
            try await Task.sleep(for: .milliseconds(100))
            let health = try await blockingIO { try rawGET(server.port, "/__apicheck/health") }
            #expect(try JSONParser().parseValue(health.body)["connections"] == 1)
        }
    }

    @Test func aClientThatResetsMidResponseLeavesTheServerFine() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("big.bin", Data(repeating: 0x5A, count: 32 << 20))
        try folder.write("big.json", #"{"request": {"path": "/big"}, "response": {"status": 200, "bodyFile": "big.bin"}}"#)
        try folder.write("ok.json", #"{"request": {"path": "/ok"}, "response": {"status": 200, "bodyText": "fine"}}"#)
        try await withStubServer(loading: [folder.path], configuration: testConfiguration()) { server in
            try await blockingIO {
                for _ in 0..<5 {
                    let connection = try RawConnection(port: server.port)
                    try connection.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(connection.fill() == .data)  // the head and the first bytes
                    connection.reset()
                }
                // Also a reset in the middle of sending a request.
                let half = try RawConnection(port: server.port)
                try half.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")
                half.reset()
                try expectHealthy(server)
            }
            try await Task.sleep(for: .milliseconds(200))
            let health = try await blockingIO { try rawGET(server.port, "/__apicheck/health") }
            #expect(try JSONParser().parseValue(health.body)["connections"] == 1)
        }
    }

    @Test func halfClosedClientsStillGetTheirPipelinedAnswers() async throws {
        try await withStubServer(Self.stubs, configuration: testConfiguration()) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
                connection.shutdownWrite()
                #expect(try connection.readResponse().text == "fine")
                #expect(try connection.readResponse().text == "fine")
                #expect(connection.readToEnd().end == .eof)
            }
        }
    }

    @Test func aThousandConcurrentConnectionsAreAllAnswered() async throws {
        try await withStubServer(Self.stubs, configuration: testConfiguration { $0.eventLoopThreads = 2 }) { server in
            try await blockingIO {
                // All open at once, then a request on each, then every answer.
                let connections = try (0..<1000).map { _ in try RawConnection(port: server.port, timeout: 20) }
                for connection in connections { try connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n") }
                var answered = 0
                for connection in connections where try connection.readResponse().text == "fine" { answered += 1 }
                #expect(answered == 1000)
            }
            #expect(server.journal.count == 1000)
        }
    }

    @Test func manySequentialRequestsOnOneConnectionKeepTheServerBounded() async throws {
        // The journal is a ring: it stays at its capacity however many requests come.
        let configuration = testConfiguration { $0.journalCapacity = 1000 }
        try await withStubServer(Self.stubs, configuration: configuration) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                for index in 0..<20_000 {
                    try connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
                    let response = try connection.readResponse()
                    if response.text != "fine" {
                        Issue.record("request \(index): \(response.statusLine)")
                        return
                    }
                }
            }
            #expect(server.journal.count == 1000)
        }
    }
}
