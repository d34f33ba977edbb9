import APICheckModel
@testable import APICheckServer
import APICheckTLS
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing

/// `apicheck serve --tls`: HTTPS with HTTP/1.1 and HTTP/2 by ALPN through the same handler, body
/// files streamed without `sendfile`, faults as stream resets, mutual TLS, and what a client that
/// never finishes its handshake gets. Clients are AsyncHTTPClient trusting the server's CA by
/// `additionalTrustRoots`: the Linux path docs/stub-server.md documents (swift-corelibs-foundation's
/// URLSession cannot trust a private CA per session).
@Suite struct TLSServerTests {
    let stubs = StubSet([
        stub("movie", "GET", "/movies/{id}", headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: #"{"id":1}"#),
        stub("created", "POST", "/movies", status: 201, headers: [HTTPHeader(name: "Location", value: "/movies/9")], body: "made"),
        stub("reset", "GET", "/reset", failure: .connectionReset),
        stub("malformed", "GET", "/malformed", failure: .malformedResponse),
    ])

    static func client(trusting pem: String?, http2: Bool, identity: TLSIdentity? = nil) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let pem { tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))] }
        if let identity {
            tls.certificateChain = try NIOSSLCertificate.fromPEMBytes(Array(identity.certificatePEM().utf8)).map { .certificate($0) }
            tls.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM().utf8), format: .pem))
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = http2 ? .automatic : .http1Only
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Shuts a client down off the test's task (a `defer` cannot await).
    static func shutDownLater(_ client: HTTPClient) {
        client.shutdown { _ in }
    }

    static func get(_ client: HTTPClient, _ url: String, method: NIOHTTP1.HTTPMethod = .GET) async throws -> (HTTPClientResponse, String) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        let response = try await client.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 24)
        return (response, String(buffer: body))
    }

    @Test(arguments: [false, true]) func answersOverHTTPSAsOverCleartext(http2: Bool) async throws {
        try await withStubServer(stubs, configuration: testConfiguration { $0.tls = try? .ephemeral() }) { server in
            #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
            let pem = try #require(server.certificateAuthorityPEM)
            let client = try Self.client(trusting: pem, http2: http2)
            defer { Self.shutDownLater(client) }
            let (response, body) = try await Self.get(client, server.baseURL + "/movies/42")
            #expect(response.status == .ok)
            #expect(response.version == (http2 ? .http2 : .http1_1))
            #expect(body == #"{"id":1}"#)
            #expect(response.headers["content-type"] == ["application/json"])
            #expect(response.headers["content-length"] == ["8"])
            // HEAD: the length of the GET, no body (HTTP/2 knows the request was HEAD).
            let (head, headBody) = try await Self.get(client, server.baseURL + "/movies/42", method: .HEAD)
            #expect(head.status == .ok && headBody.isEmpty)
            // A near miss is the same problem document on every transport.
            let (missing, problem) = try await Self.get(client, server.baseURL + "/nothing")
            #expect(missing.status == .notFound)
            #expect(problem.contains("\"title\""))
            // The journal saw https, and the admin API answers on the same port.
            #expect(server.journal.entries(offset: 0, limit: 10).entries.first?.request.scheme == "https")
            let (health, healthBody) = try await Self.get(client, server.baseURL + "/__apicheck/health")
            #expect(health.status == .ok && healthBody.contains("\"status\": \"ok\""))
        }
    }

    @Test func bodyFilesAreStreamedInChunksOverTLSAndHTTP2() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Larger than one 64 KiB chunk and than an HTTP/2 flow-control window.
        let bytes = (0..<300_000).map { UInt8($0 % 251) }
        try folder.write("files/big.bin", Data(bytes))
        try folder.write("big.json", #"{"name": "big", "request": {"method": "GET", "path": "/big"}, "response": {"status": 200, "headers": {"Content-Type": "application/octet-stream"}, "bodyFile": "files/big.bin"}}"#)
        try await withStubServer(loading: [folder.path], configuration: testConfiguration { $0.tls = try? .ephemeral() }) { server in
            for http2 in [false, true] {
                let client = try Self.client(trusting: server.certificateAuthorityPEM, http2: http2)
                defer { Self.shutDownLater(client) }
                let response = try await client.execute(HTTPClientRequest(url: server.baseURL + "/big"), timeout: .seconds(10))
                let body = try await response.body.collect(upTo: 1 << 24)
                #expect(Array(body.readableBytesView) == bytes, "http2: \(http2)")
                #expect(response.headers["content-length"] == ["300000"])
            }
        }
    }

    @Test func theServersBoundsHoldOnEveryHTTP2Stream() async throws {
        let configuration = testConfiguration { configuration in
            configuration.tls = try? .ephemeral()
            configuration.limits.maximumBodyBytes = 1 << 20
        }
        try await withStubServer(stubs, configuration: configuration) { server in
            let client = try Self.client(trusting: server.certificateAuthorityPEM, http2: true)
            defer { Self.shutDownLater(client) }
            var upload = HTTPClientRequest(url: server.baseURL + "/movies")
            upload.method = .POST
            upload.body = .bytes(ByteBuffer(repeating: 0x61, count: 2 << 20))
            // Over the body limit: 413, as on HTTP/1.1 (or the stream cut while the body still flows).
            if let response = try? await client.execute(upload, timeout: .seconds(10)) {
                #expect(response.version == .http2)
                #expect(response.status == .payloadTooLarge)
            }
            // A header list over the limit never reaches matching: NIOHTTP2 ends the connection
            // (GOAWAY, COMPRESSION_ERROR) and the server closes it at once, not at the idle timeout.
            var large = HTTPClientRequest(url: server.baseURL + "/movies/1")
            large.headers.add(name: "X-Large", value: String(repeating: "b", count: 20 << 10))
            do {
                let response = try await client.execute(large, timeout: .seconds(8))
                #expect(response.status != .ok, "a 20 KiB header list was answered 200")
            } catch {
                #expect(error as? HTTPClientError != .deadlineExceeded, "the connection was held open: \(error)")
            }
            var small = HTTPClientRequest(url: server.baseURL + "/movies")
            small.method = .POST
            small.body = .bytes(ByteBuffer(string: "{}"))
            let (created, body) = (try await client.execute(small, timeout: .seconds(10)), "")
            #expect(created.status == .created && body.isEmpty)
            #expect(server.journal.entries(offset: 0, limit: 10).entries.allSatisfy { $0.request.path != "/movies/1" })
        }
    }

    @Test func anHTTP2ClientThatShutsDownIsNotHeldOpen() async throws {
        try await withStubServer(stubs, configuration: testConfiguration { $0.tls = try? .ephemeral() }) { server in
            let client = try Self.client(trusting: server.certificateAuthorityPEM, http2: true)
            let (response, _) = try await Self.get(client, server.baseURL + "/movies/1")
            #expect(response.version == .http2)
            #expect(server.core.connections.count == 1)
            // AsyncHTTPClient sends GOAWAY and waits for the server to close.
            try await client.shutdown()
            var open = server.core.connections.count
            for _ in 0..<100 where open > 0 {
                try await Task.sleep(for: .milliseconds(50))
                open = server.core.connections.count
            }
            #expect(open == 0, "the server held a connection its client had left")
        }
    }

    @Test func anHTTP2ConnectionInUseOutlivesTheIdleTimeoutAndAnIdleOneDoesNot() async throws {
        let configuration = testConfiguration { configuration in
            configuration.tls = try? .ephemeral()
            configuration.limits.idleTimeout = .seconds(1)
        }
        // A stream open for 2.5 s on a server whose idle timeout is 1 s: the connection is busy the
        // whole time, so it must not be cut (it was, when the connection manager never saw streams).
        // Timed by the stub, not by the test's sleeps, so a loaded machine cannot make it idle.
        let slow = StubSet(stubs.stubs + [stub("slow", "GET", "/slow", body: "late", latency: StubLatency(request: 2.5))])
        try await withStubServer(slow, configuration: configuration) { server in
            let client = try Self.client(trusting: server.certificateAuthorityPEM, http2: true)
            defer { Self.shutDownLater(client) }
            let (response, body) = try await Self.get(client, server.baseURL + "/slow")
            #expect(response.version == .http2 && response.status == .ok && body == "late")
            #expect(server.journal.count == 1)
            // Then idle: closed after the timeout.
            var open = server.core.connections.count
            for _ in 0..<100 where open > 0 {
                try await Task.sleep(for: .milliseconds(100))
                open = server.core.connections.count
            }
            #expect(open == 0)
        }
    }

    @Test func aConnectionFaultResetsOnlyItsStreamOnHTTP2() async throws {
        try await withStubServer(stubs, configuration: testConfiguration { $0.tls = try? .ephemeral() }) { server in
            let client = try Self.client(trusting: server.certificateAuthorityPEM, http2: true)
            defer { Self.shutDownLater(client) }
            let (first, _) = try await Self.get(client, server.baseURL + "/movies/1")
            #expect(first.version == .http2)
            for path in ["/reset", "/malformed"] {
                await #expect(throws: (any Error).self, "\(path) must fail") { _ = try await Self.get(client, server.baseURL + path) }
            }
            // The connection lives on: the next request is answered (on it or another).
            let (after, body) = try await Self.get(client, server.baseURL + "/movies/2")
            #expect(after.status == .ok && body == #"{"id":1}"#)
            #expect(server.journal.count == 4)
        }
    }

    @Test func mutualTLSRequiresACertificateFromTheClientCA() async throws {
        let clients = try LocalCertificateAuthority.ephemeral()
        let bundle = CertificateBundle(certificates: [clients.certificate])
        try await withStubServer(stubs, configuration: testConfiguration { configuration in
            configuration.tls = try? .ephemeral()
            configuration.tls?.clientCertificateAuthorities = bundle
        }) { server in
            let anonymous = try Self.client(trusting: server.certificateAuthorityPEM, http2: false)
            defer { Self.shutDownLater(anonymous) }
            await #expect(throws: (any Error).self) { _ = try await Self.get(anonymous, server.baseURL + "/movies/1") }
            let stranger = try Self.client(
                trusting: server.certificateAuthorityPEM, http2: true, identity: try LocalCertificateAuthority.ephemeral().issueClientIdentity(commonName: "stranger"))
            defer { Self.shutDownLater(stranger) }
            await #expect(throws: (any Error).self) { _ = try await Self.get(stranger, server.baseURL + "/movies/1") }
            for http2 in [false, true] {
                let known = try Self.client(trusting: server.certificateAuthorityPEM, http2: http2, identity: try clients.issueClientIdentity(commonName: "app"))
                defer { Self.shutDownLater(known) }
                let (response, _) = try await Self.get(known, server.baseURL + "/movies/1")
                #expect(response.status == .ok)
            }
            #expect(server.journal.count == 2)
        }
    }

    @Test func clientsThatNeverFinishAHandshakeAreClosedAndOthersServed() async throws {
        try await withStubServer(stubs, configuration: testConfiguration { configuration in
            configuration.tls = try? .ephemeral()
            configuration.limits.headerTimeout = .seconds(1)
        }) { server in
            try await blockingIO {
                // Plaintext to the TLS port: refused at once (an alert, then the close).
                let plaintext = try RawConnection(port: server.port, timeout: 5)
                try plaintext.send("GET /movies/1 HTTP/1.1\r\nHost: x\r\n\r\n")
                let (bytes, end) = plaintext.readToEnd()
                #expect(end != .timeout)
                #expect(!String(decoding: bytes, as: UTF8.self).contains("HTTP/1.1 200"))
                // A ClientHello that stops after its first bytes: closed at the head timeout.
                let stalled = try RawConnection(port: server.port, timeout: 8)
                let started = Date()
                try stalled.send([0x16, 0x03, 0x01])
                #expect(stalled.readToEnd().end != .timeout)
                let elapsed = Date().timeIntervalSince(started)
                #expect(elapsed < 6, "\(elapsed) s")
            }
            let client = try Self.client(trusting: server.certificateAuthorityPEM, http2: true)
            defer { Self.shutDownLater(client) }
            let (response, _) = try await Self.get(client, server.baseURL + "/movies/1")
            #expect(response.status == .ok)
        }
    }

    @Test func aClientThatDoesNotTrustTheCAIsRefusedAndSaysSo() async throws {
        try await withStubServer(stubs, configuration: testConfiguration { $0.tls = try? .ephemeral() }) { server in
            let client = try Self.client(trusting: nil, http2: false)
            defer { Self.shutDownLater(client) }
            await #expect(throws: (any Error).self) { _ = try await Self.get(client, server.baseURL + "/movies/1") }
            // What the crawler tells its user, from the certificate the server presents.
            let explanation = await CertificateDiagnosis.explain(host: "127.0.0.1", port: server.port, trust: .system)
            #expect(explanation?.contains("--cacert") == true, "\(explanation ?? "nil")")
            #expect(server.journal.count == 0)
        }
    }

    @Test func cleartextHTTP2WithPriorKnowledgeBesideHTTP1() async throws {
        try await withStubServer(stubs, configuration: testConfiguration { $0.cleartextHTTP2 = true }) { server in
            // HTTP/1.1 as ever on the same port.
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /movies/1 HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try connection.readResponse().status == 200)
                // The HTTP/2 preface gets HTTP/2's SETTINGS back (frame type 4), not an HTTP/1 error.
                let h2 = try RawConnection(port: server.port, timeout: 1)
                try h2.send(Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0])
                let received = h2.readToEnd().bytes
                #expect(received.count >= 9 && received[3] == 4, "\(received.prefix(9))")
            }
        }
    }
}
