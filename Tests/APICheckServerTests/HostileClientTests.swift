import APICheckModel
import APICheckResponder
import Foundation
import Testing

@testable import APICheckServer

/// What a client can make the server hold, bounded (issue #19's server attacks, short versions;
/// the long ones are `Benchmarks/attacks.py`): slowloris heads, too many connections, many
/// large bodies at once, a journal of large bodies.
@Suite struct HostileClientTests {
    private let stubs = StubSet([stub("a", "GET", "/a", body: "A"), stub("put", "PUT", "/a", body: "stored")])

    @Test func aHeadThatTricklesInIsAnswered408AtTheHeaderTimeoutAndClosed() async throws {
        let configuration = testConfiguration { $0.limits.headerTimeout = .seconds(1) }
        try await withStubServer(stubs, configuration: configuration) { server in
            try await blockingIO {
                let dripping = try RawConnection(port: server.port, timeout: 5)
                let started = Date()
                try dripping.send("GET /a HTTP/1.1\r\n")
                // A byte every 200 ms keeps it from ever being idle; only the head deadline ends it.
                var answered = false
                for _ in 0..<20 where !answered {
                    Thread.sleep(forTimeInterval: 0.2)
                    do { try dripping.send("X") } catch { answered = true }
                    var readable = pollfd(fd: dripping.descriptor, events: Int16(POLLIN), revents: 0)
                    if poll(&readable, 1, 0) > 0 { answered = true }
                }
                let response = try dripping.readResponse()
                #expect(response.status == 408)
                #expect(response.header("Content-Type") == "application/problem+json")
                #expect(response.text.contains("did not arrive within"))
                let elapsed = Date().timeIntervalSince(started)
                #expect(elapsed >= 0.9 && elapsed < 3, "\(elapsed) s")
                #expect(dripping.readToEnd().end != .timeout, "closed after the 408")
                // Others are served meanwhile and after.
                let other = try RawConnection(port: server.port)
                try other.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try other.readResponse().text == "A")
            }
        }
    }

    @Test func aBodyThatTricklesInIsAnswered408WhileASlowButSteadyUploadIsServed() async throws {
        let configuration = testConfiguration { $0.limits.headerTimeout = .seconds(1) }
        try await withStubServer(stubs, configuration: configuration) { server in
            try await blockingIO {
                let dripping = try RawConnection(port: server.port, timeout: 5)
                let started = Date()
                try dripping.send("PUT /a HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
                var answered = false
                for _ in 0..<20 where !answered {
                    Thread.sleep(forTimeInterval: 0.2)
                    do { try dripping.send("d") } catch { answered = true }
                    var readable = pollfd(fd: dripping.descriptor, events: Int16(POLLIN), revents: 0)
                    if poll(&readable, 1, 0) > 0 { answered = true }
                }
                let response = try dripping.readResponse()
                #expect(response.status == 408)
                #expect(response.text.contains("slower than 500 bytes/s"))
                #expect(Date().timeIntervalSince(started) < 3)
                // 2,000 bytes/s for 2 s: slower than the grace, faster than the rate.
                let steady = try RawConnection(port: server.port, timeout: 5)
                try steady.send("PUT /a HTTP/1.1\r\nHost: x\r\nContent-Length: 4000\r\n\r\n")
                for _ in 0..<10 {
                    try steady.send(String(repeating: "s", count: 400))
                    Thread.sleep(forTimeInterval: 0.2)
                }
                #expect(try steady.readResponse().text == "stored")
            }
        }
    }

    @Test func anIdleKeepAliveConnectionIsNotCutByTheHeaderTimeout() async throws {
        let configuration = testConfiguration { $0.limits.headerTimeout = .milliseconds(500) }
        try await withStubServer(stubs, configuration: configuration) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try connection.readResponse().status == 200)
                // Silent between requests for longer than the head deadline: that is idleness.
                Thread.sleep(forTimeInterval: 1.2)
                try connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try connection.readResponse().status == 200)
                // A head sent whole, after a pause, within one burst: fine too.
                Thread.sleep(forTimeInterval: 0.8)
                try connection.send("PUT /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
                #expect(try connection.readResponse().text == "stored")
            }
        }
    }

    @Test func connectionsBeyondTheLimitWaitUntilOneCloses() async throws {
        let configuration = testConfiguration { $0.limits.maximumConnections = 2 }
        try await withStubServer(stubs, configuration: configuration) { server in
            try await blockingIO {
                let first = try RawConnection(port: server.port)
                let second = try RawConnection(port: server.port)
                for connection in [first, second] {
                    try connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(try connection.readResponse().status == 200)
                }
                // The kernel completes the handshake; the server does not accept it yet.
                let third = try RawConnection(port: server.port, timeout: 0.6)
                try third.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(third.fill() == .timeout, "no answer while two connections are open")
                first.reset()
                var answered: RawResponse?
                for _ in 0..<10 where answered == nil {
                    answered = try? third.readResponse()
                }
                #expect(answered?.text == "A", "accepted once one closed")
            }
        }
    }

    @Test func manyClientsWaitingAtTheLimitAreAllServedNotReset() async throws {
        let configuration = testConfiguration { $0.limits.maximumConnections = 2 }
        try await withStubServer(stubs, configuration: configuration) { server in
            try await blockingIO {
                var held = [try RawConnection(port: server.port), try RawConnection(port: server.port)]
                for connection in held {
                    try connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
                    _ = try connection.readResponse()
                }
                // Four wait; a new-user trial saw some of them reset when one slot freed.
                let waiting = try (0..<4).map { _ in try RawConnection(port: server.port, timeout: 5) }
                for connection in waiting { try connection.send("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") }
                Thread.sleep(forTimeInterval: 0.3)
                held.removeAll()
                for connection in waiting {
                    let response = try connection.readResponse()
                    #expect(response.text == "A")
                }
            }
        }
    }

    @Test func bodiesBeyondTheServersBodyMemoryAreAnswered503AndTheBudgetComesBack() async throws {
        let configuration = testConfiguration {
            $0.limits.maximumBodyBytes = 60_000
            $0.limits.maximumBodyMemory = 64 << 10
        }
        try await withStubServer(stubs, configuration: configuration) { server in
            try await blockingIO {
                // One upload holds 50,000 bytes of the 65,536 and waits.
                let holding = try RawConnection(port: server.port)
                try holding.send("PUT /a HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n" + String(repeating: "h", count: 50_000))
                Thread.sleep(forTimeInterval: 0.3)
                let refused = try RawConnection(port: server.port)
                try refused.send("PUT /a HTTP/1.1\r\nHost: x\r\nContent-Length: 30000\r\n\r\n" + String(repeating: "r", count: 30_000))
                let response = try refused.readResponse()
                #expect(response.status == 503)
                #expect(response.text.contains("--max-body-memory"))
                #expect(response.header("Retry-After") == "1")
                // The holder finishes and is served; its bytes go back to the budget.
                try holding.send(String(repeating: "h", count: 10_000))
                #expect(try holding.readResponse().text == "stored")
                let later = try RawConnection(port: server.port)
                try later.send("PUT /a HTTP/1.1\r\nHost: x\r\nContent-Length: 30000\r\n\r\n" + String(repeating: "l", count: 30_000))
                #expect(try later.readResponse().text == "stored")
            }
            #expect(server.bodyMemoryHeld == 0, "every reservation released")
        }
    }

    @Test func theJournalKeepsBodyPrefixesWithinItsBytes() async throws {
        let configuration = testConfiguration {
            $0.limits.maximumJournalBodyBytes = 100
            $0.limits.maximumJournalBytes = 250
        }
        try await withStubServer(stubs, configuration: configuration) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                for index in 0..<5 {
                    let body = String(repeating: Character(String(index)), count: 10_000)
                    try connection.send("PUT /a HTTP/1.1\r\nHost: x\r\nContent-Length: 10000\r\n\r\n" + body)
                    #expect(try connection.readResponse().status == 200)
                }
            }
            let entries = server.journal.all
            #expect(entries.count == 2, "250 bytes hold two 100-byte prefixes: the oldest went first")
            #expect(entries.map(\.bodyByteCount) == [10_000, 10_000])
            #expect(entries.map(\.request.body.count) == [100, 100])
            #expect(entries.allSatisfy { $0.isBodyTruncated })
            #expect(entries.last?.bodyText == String(repeating: "4", count: 100))
        }
    }
}
