import APICheckJSON
import APICheckModel
import APICheckServer
import APICheckStubFiles
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Normal traffic over real sockets on 127.0.0.1: what clients see.
@Suite struct StubServerTests {
    @Test func servesStubsToURLSessionOnAFreeLoopbackPort() async throws {
        let stubs = StubSet([
            stub("hello", "GET", "/hello", headers: [HTTPHeader(name: "Content-Type", value: "text/plain")], body: "Hello, world"),
            stub("movie", "GET", "/movies/{id}", headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: #"{"id":1}"#),
        ])
        try await withStubServer(stubs, configuration: testConfiguration()) { server in
            #expect(server.port > 0)
            #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
            let session = testSession()
            let asked = Date()
            let (data, response) = try await session.data(from: server.url.appendingPathComponent("hello"))
            let answered = Date()
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "Hello, world")
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/plain")
            #expect(http.value(forHTTPHeaderField: "Content-Length") == "12")
            #expect(http.value(forHTTPHeaderField: "Server") == "apicheck")
            let date = try #require(http.value(forHTTPHeaderField: "Date"))
            // Between asking and the answer (whole seconds): however loaded the machine is.
            #expect(HTTPDate.parse(date).map { $0 >= asked.addingTimeInterval(-1) && $0 <= answered.addingTimeInterval(1) } == true, "\(date)")

            let (movie, _) = try await session.data(from: server.url.appendingPathComponent("movies/42"))
            #expect(String(decoding: movie, as: UTF8.self) == #"{"id":1}"#)
            #expect(server.journal.requests(path: "/movies/{id}").count == 1)
            #expect(server.journal.count == 2)
        }
    }

    @Test func theStaleContentLengthOfThePEWireFixtureIsReplacedByTheRealOne() async throws {
        let fixture = Paths.fixtures.appendingPathComponent("pewire").path
        try await withStubServer(loading: [fixture], configuration: testConfiguration()) { server in
            let response = try await blockingIO { try rawGET(server.port, "/users") }
            #expect(response.status == 200)
            #expect(response.text == "<some-xml>this is the body!</some-xml>")
            #expect(response.headers("Content-Length") == ["38"])  // the stub says 50
            #expect(response.header("Content-Type") == "application/xml")
            #expect(response.header("Cache-Control") == "no-cache")
            #expect(response.header("Expires") == "Fri, 02 Dec 1995 12:00:03 GMT")
            // One Set-Cookie header per cookie, never folded.
            let cookies = response.headers("Set-Cookie")
            #expect(cookies.count == 2)
            #expect(cookies.first?.hasPrefix("C1=C1-val; Expires=Sat, 16 Nov 2013 15:00:00 GMT") == true)
            #expect(cookies.first?.hasSuffix("Secure") == true)
            #expect(cookies.last == "C2=C2-val; Domain=.c2.paulevans.name; Path=/c2")
            #expect(response.header("Date") != nil && response.header("Server") == "apicheck")
        }
    }

    @Test func keepAliveAndPipelinedRequestsAreAnsweredInOrderOnOneConnection() async throws {
        let stubs = StubSet((0..<5).map { stub("s\($0)", "GET", "/n/\($0)", body: "body \($0)") })
        try await withStubServer(stubs, configuration: testConfiguration()) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                // Five requests in one write: pipelining.
                try connection.send((0..<5).map { "GET /n/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
                for index in 0..<5 {
                    let response = try connection.readResponse()
                    #expect(response.status == 200)
                    #expect(response.text == "body \(index)")
                    #expect(response.header("Connection") == nil)
                }
                // Still open: keep-alive.
                try connection.send("GET /n/3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let last = try connection.readResponse()
                #expect(last.text == "body 3")
                #expect(last.header("Connection") == "close")
                #expect(connection.readToEnd().end == .eof)
            }
        }
    }

    @Test func http10ClientsGetKeepAliveOnlyWhenTheyAskForIt() async throws {
        try await withStubServer(StubSet([stub("a", "GET", "/a", body: "A")]), configuration: testConfiguration()) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                let first = try connection.readResponse()
                #expect(first.header("Connection") == "keep-alive")
                try connection.send("GET /a HTTP/1.0\r\n\r\n")
                let second = try connection.readResponse()
                #expect(second.header("Connection") == "close")
                #expect(connection.readToEnd().end == .eof)
            }
        }
    }

    @Test func headIsAnsweredByTheGetStubWithItsLengthAndNoBody() async throws {
        let stubs = StubSet([stub("page", "GET", "/page", headers: [HTTPHeader(name: "Content-Type", value: "text/html")], body: "<p>twenty bytes!</p>")])
        try await withStubServer(stubs, configuration: testConfiguration()) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                try connection.send("HEAD /page HTTP/1.1\r\nHost: x\r\n\r\nGET /page HTTP/1.1\r\nHost: x\r\n\r\n")
                let head = try connection.readResponse(expectBody: false)
                #expect(head.status == 200)
                #expect(head.header("Content-Length") == "20")
                // The next response starts right after the head: no body bytes in between.
                let get = try connection.readResponse()
                #expect(get.text == "<p>twenty bytes!</p>")
            }
            var request = URLRequest(url: server.url.appendingPathComponent("page"))
            request.httpMethod = "HEAD"
            let (data, response) = try await testSession().data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(data.isEmpty)
        }
    }

    @Test func chunkedRequestBodiesAreReassembledForMatching() async throws {
        var rent = stub("rent", "PUT", "/cart", body: "rented")
        rent.request.body = [.jsonPointer(path: "/movieId", equals: "1msRby")]
        try await withStubServer(StubSet([rent]), configuration: testConfiguration()) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                try connection.send("PUT /cart HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n")
                try connection.send("5\r\n{\"mov\r\n")
                try connection.send("e\r\nieId\":\"1msRby\"\r\n1\r\n}\r\n0\r\n\r\n")
                let response = try connection.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "rented")
            }
            #expect(server.journal.all.first?.bodyText == #"{"movieId":"1msRby"}"#)
        }
    }

    @Test func expectContinueGetsAnInterimResponseBeforeTheBodyIsSent() async throws {
        var upload = stub("upload", "POST", "/upload", status: 201, body: "stored")
        upload.request.body = [.contains("payload")]
        try await withStubServer(StubSet([upload]), configuration: testConfiguration()) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\nExpect: 100-continue\r\n\r\n")
                let interim = try connection.readResponse()
                #expect(interim.status == 100)
                try connection.send("payload")
                let final = try connection.readResponse()
                #expect(final.status == 201)
                #expect(final.text == "stored")
            }
            // URLSession (libcurl) sends Expect: 100-continue for larger uploads.
            var request = URLRequest(url: server.url.appendingPathComponent("upload"))
            request.httpMethod = "POST"
            request.httpBody = Data(("payload" + String(repeating: "x", count: 200_000)).utf8)
            let (data, response) = try await testSession().data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 201)
            #expect(String(decoding: data, as: UTF8.self) == "stored")
        }
    }

    @Test func bodyFilesAreStreamedByteExactAndTheirSizeReadWhenSent() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 6 MiB of a pattern, so a byte out of place shows.
        let bytes = Data((0..<(6 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) })
        try folder.write("files/big.bin", bytes)
        try folder.write("big.xml", #"<http-response statusCode="200"><annotation uri-path="/big" request-method="GET"/><headers><header name="Content-Type" value="application/octet-stream"/></headers><body-file path="files/big.bin"/></http-response>"#)
        try await withStubServer(loading: [folder.path], configuration: testConfiguration()) { server in
            let (data, response) = try await testSession().data(from: server.url.appendingPathComponent("big"))
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length") == String(bytes.count))
            #expect(data == bytes)
            // The file is read when sent: a changed file is served as it is now.
            try folder.write("files/big.bin", Data("small now".utf8))
            let again = try await blockingIO { try rawGET(server.port, "/big") }
            #expect(again.text == "small now")
            #expect(again.header("Content-Length") == "9")
            // A vanished file: 500 with the reason, and the server goes on.
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent("files/big.bin"))
            let gone = try await blockingIO { try rawGET(server.port, "/big") }
            #expect(gone.status == 500)
            #expect(gone.header("Content-Type") == "application/problem+json")
            #expect(gone.text.contains("is gone"))
        }
    }

    @Test func unmatchedRequestsGetA404ProblemWithTheNearMissReport() async throws {
        let stubs = StubSet([stub("movie", "GET", "/movies/{id}", body: "m"), stub("cart", "PUT", "/cart", body: "c")])
        try await withStubServer(stubs, configuration: testConfiguration()) { server in
            let response = try await blockingIO { try rawGET(server.port, "/cart") }
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == "application/problem+json")
            let problem = try JSONParser().parseValue(response.body)
            #expect(problem["status"] == 404)
            #expect(problem["title"] == "No stub matches the request")
            guard case .string(let detail)? = problem["detail"] else {
                Issue.record("no detail")
                return
            }
            #expect(detail.contains("No stub matches GET /cart"))
            #expect(detail.contains("method: expected PUT, got GET"))
            #expect(problem.value(at: "/nearMisses/0/stub") == "cart")
            #expect(server.journal.unmatched.count == 1)
        }
    }

    @Test func templatesRenderWithTheServersOwnOriginAsBaseURL() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("templates/movie.json.mustache", #"{"id":"{{request.pathParams.id}}","self":"{{baseURL}}/movies/{{request.pathParams.id}}","q":"{{request.query.lang}}"}"#)
        try folder.write("movie.json", #"{"request": {"path": "/movies/{id}"}, "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "template": "templates/movie.json.mustache"}}"#)
        try await withStubServer(loading: [folder.path], configuration: testConfiguration()) { server in
            let (data, response) = try await testSession().data(from: URL(string: "\(server.baseURL)/movies/42?lang=en")!)
            #expect(String(decoding: data, as: UTF8.self) == #"{"id":"42","self":"\#(server.baseURL)/movies/42","q":"en"}"#)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length") == String(data.count))
        }
    }

    @Test func rewriteOriginServesAcmeFlixLinksOnAnyPort() async throws {
        let configuration = testConfiguration { $0.rewriteOrigins = ["http://localhost:3000"] }
        try await withStubServer(loading: [Paths.acmeflix], configuration: configuration) { server in
            let session = testSession()
            // Follow links from the root exactly as a hypermedia client would.
            let (rootData, _) = try await session.data(from: server.url.appendingPathComponent(""))
            let root = try JSONParser().parseValue(Array(rootData))
            guard case .array(let links)? = root["_links"] else {
                Issue.record("no links")
                return
            }
            #expect(!String(decoding: rootData, as: UTF8.self).contains("localhost:3000"))
            for link in links {
                guard case .string(let href)? = link["href"] else { continue }
                #expect(href.hasPrefix(server.baseURL), "\(href)")
                let (_, response) = try await session.data(from: try #require(URL(string: href)))
                #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(href)")
            }
            let (movie, response) = try await session.data(from: URL(string: "\(server.baseURL)/movies/1msRby")!)
            let text = String(decoding: movie, as: UTF8.self)
            #expect(text.contains("\"href\":\"\(server.baseURL)/poster/1msRby\""))
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length") == String(movie.count))
            // Posters are binary: untouched, streamed from their files.
            let (poster, posterResponse) = try await session.data(from: URL(string: "\(server.baseURL)/poster/1msRby")!)
            #expect((posterResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "image/jpg")
            #expect(poster == (try Data(contentsOf: URL(fileURLWithPath: Paths.acmeflix + "/posters/1msRby.jpg"))))
        }
    }

    @Test func rewrittenLinkHeadersAndRedirectLocations() async throws {
        let stubs = StubSet([
            stub("moved", "GET", "/old", status: 301, headers: [HTTPHeader(name: "Location", value: "http://localhost:3000/new"), HTTPHeader(name: "Link", value: "<http://localhost:3000/a>; rel=\"next\"")]),
            stub("new", "GET", "/new", body: "new place"),
        ])
        try await withStubServer(stubs, configuration: testConfiguration { $0.rewriteOrigins = ["http://localhost:3000"] }) { server in
            let response = try await blockingIO { try rawGET(server.port, "/old") }
            #expect(response.status == 301)
            #expect(response.header("Location") == "\(server.baseURL)/new")
            #expect(response.header("Link") == "<\(server.baseURL)/a>; rel=\"next\"")
            // URLSession follows the rewritten redirect to the stub server itself.
            let (data, _) = try await testSession().data(from: server.url.appendingPathComponent("old"))
            #expect(String(decoding: data, as: UTF8.self) == "new place")
        }
    }

    @Test func sequencesAndScenariosBehaveAsInTheInterceptor() async throws {
        let counter = stub(
            "counter", "GET", "/count",
            sequence: StubSequence(responses: [StubResponse(body: .bytes(Data("one".utf8))), StubResponse(body: .bytes(Data("two".utf8)))], afterLast: .fail)
        )
        let success = stub("success", "POST", "/sign-in", body: "welcome", scenario: ScenarioTag(useCase: "welcome/sign-in", name: "success"))
        let locked = stub("locked", "POST", "/sign-in", status: 423, body: "locked", scenario: ScenarioTag(useCase: "welcome/sign-in", name: "locked"))
        let configuration = testConfiguration { $0.scenarios = ["welcome/sign-in": "locked"] }
        try await withStubServer(StubSet([counter, success, locked]), configuration: configuration) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                for expected in ["one", "two"] {
                    try connection.send("GET /count HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(try connection.readResponse().text == expected)
                }
                try connection.send("GET /count HTTP/1.1\r\nHost: x\r\n\r\n")
                let exhausted = try connection.readResponse()
                #expect(exhausted.status == 404)
                #expect(exhausted.text.contains("exhausted"))

                try connection.send("POST /sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
                #expect(try connection.readResponse().status == 423)
            }
            server.select("success", for: "welcome/sign-in")
            let after = try await blockingIO { () -> RawResponse in
                let connection = try RawConnection(port: server.port)
                try connection.send("POST /sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(after.status == 200)
            #expect(after.text == "welcome")
        }
    }

    @Test func latencyDelaysOneConnectionWithoutBlockingOthers() async throws {
        let stubs = StubSet([
            // Seconds, not a fraction: the fast request must finish first even on a loaded CI machine.
            // 8 s: while CPU-bound tests (the JSON Schema suite) hold both threads of the
            // cooperative pool, this test's own continuations waited up to 4.6 s on 2 cores.
            stub("slow", "GET", "/slow", body: "slow", latency: StubLatency(request: 8.0, response: 0.5)),
            stub("fast", "GET", "/fast", body: "fast"),
        ])
        // One event loop: a blocking delay would hold every connection.
        try await withStubServer(stubs, configuration: testConfiguration()) { server in
            let start = ContinuousClock.now
            async let slow = blockingIO { () -> (RawResponse, Duration) in
                let connection = try RawConnection(port: server.port, timeout: 15)
                try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
                let head = try connection.readResponse(expectBody: false)
                let headTime = ContinuousClock.now - start
                _ = connection.fill()
                return (head, headTime)
            }
            try await Task.sleep(for: .milliseconds(50))
            let fast = try await blockingIO { try rawGET(server.port, "/fast") }
            let fastTime = ContinuousClock.now - start
            #expect(fast.text == "fast")
            let (slowHead, slowHeadTime) = try await slow
            #expect(slowHead.status == 200)
            #expect(fastTime < slowHeadTime, "the fast request (\(fastTime)) waited for the slow one (\(slowHeadTime))")
            #expect(slowHeadTime >= .milliseconds(7950))
            #expect(ContinuousClock.now - start >= .milliseconds(8450))
        }
    }

    @Test func corsAnswersPreflightsAndAddsHeaders() async throws {
        let stubs = StubSet([stub("data", "GET", "/data", headers: [HTTPHeader(name: "X-Total", value: "3")], body: "[]")])
        try await withStubServer(stubs, configuration: testConfiguration { $0.cors = true }) { server in
            try await blockingIO {
                let connection = try RawConnection(port: server.port)
                try connection.send("OPTIONS /data HTTP/1.1\r\nHost: x\r\nOrigin: http://app.test\r\nAccess-Control-Request-Method: PUT\r\nAccess-Control-Request-Headers: content-type, x-token\r\n\r\n")
                let preflight = try connection.readResponse()
                #expect(preflight.status == 204)
                #expect(preflight.header("Access-Control-Allow-Origin") == "http://app.test")
                #expect(preflight.header("Access-Control-Allow-Methods")?.contains("PUT") == true)
                #expect(preflight.header("Access-Control-Allow-Headers") == "content-type, x-token")
                try connection.send("GET /data HTTP/1.1\r\nHost: x\r\nOrigin: http://app.test\r\n\r\n")
                let actual = try connection.readResponse()
                #expect(actual.text == "[]")
                #expect(actual.header("Access-Control-Allow-Origin") == "http://app.test")
                #expect(actual.header("Access-Control-Allow-Credentials") == "true")
                #expect(actual.header("Access-Control-Expose-Headers") == "X-Total")
            }
        }
        // Without --cors, preflights are ordinary requests (here unmatched).
        try await withStubServer(stubs, configuration: testConfiguration()) { server in
            let response = try await blockingIO {
                let connection = try RawConnection(port: server.port)
                try connection.send("OPTIONS /data HTTP/1.1\r\nHost: x\r\nOrigin: http://app.test\r\nAccess-Control-Request-Method: PUT\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == 404)
            #expect(response.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func unsafeStubHeadersAreLeftOutNotSent() async throws {
        let stubs = StubSet([stub("split", "GET", "/split", headers: [HTTPHeader(name: "X-Ok", value: "fine"), HTTPHeader(name: "X-Evil", value: "a\r\nSet-Cookie: injected=1")], body: "b")])
        try await withStubServer(stubs, configuration: testConfiguration()) { server in
            let response = try await blockingIO { try rawGET(server.port, "/split") }
            #expect(response.header("X-Ok") == "fine")
            #expect(response.header("X-Evil") == nil)
            #expect(response.header("Set-Cookie") == nil)
        }
    }

    @Test func replacingStubsServesTheNewSetAndTheSwapIsAtomic() async throws {
        let first = StubSet([stub("v", "GET", "/version", body: "1")])
        try await withStubServer(first, configuration: testConfiguration { $0.eventLoopThreads = 2 }) { server in
            // Hammer while swapping: every answer is a whole version, never a mix or a 404.
            let port = server.port
            async let answers = blockingIO { () -> [String] in
                let connection = try RawConnection(port: port)
                var seen: [String] = []
                for _ in 0..<2000 {
                    try connection.send("GET /version HTTP/1.1\r\nHost: x\r\n\r\n")
                    let response = try connection.readResponse()
                    seen.append(response.status == 200 ? response.text : "status \(response.status)")
                }
                return seen
            }
            for version in 2...20 {
                server.replaceStubs(StubSet([stub("v", "GET", "/version", body: String(version), latency: .none)]))
                try await Task.sleep(for: .milliseconds(2))
            }
            let seen = try await answers
            #expect(seen.allSatisfy { Int($0) != nil }, "\(Set(seen))")
            let now = try await blockingIO { try rawGET(port, "/version") }
            #expect(now.text == "20")
        }
    }

    @Test func shutdownFinishesRequestsInFlightClosesIdleConnectionsAndStopsAccepting() async throws {
        let stubs = StubSet([
            stub("slow", "GET", "/slow", body: "finished", latency: StubLatency(request: 1)),
            stub("held", "GET", "/held", failure: .timedOut),
            stub("ok", "GET", "/ok", body: "ok"),
        ])
        let server = try await StubServer.start(stubs: stubs, configuration: testConfiguration { $0.shutdownTimeout = .seconds(4) })
        let port = server.port
        let idle = try await blockingIO { () -> RawConnection in
            let connection = try RawConnection(port: port)
            try connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try connection.readResponse()
            return connection
        }
        let held = try await blockingIO { () -> RawConnection in
            let connection = try RawConnection(port: port)
            try connection.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
            return connection
        }
        // A long read timeout: with CPU-bound tests holding Swift's cooperative pool, this test's
        // own continuations (the sleep below, the shutdown call) can be late by seconds (a CI run
        // saw the answer arrive, then the client's 5 s read expire before shutdown began).
        async let inFlight = blockingIO { () -> (RawResponse, ReadEnd) in
            let connection = try RawConnection(port: port, timeout: 30)
            try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try connection.readResponse()
            return (response, connection.readToEnd().end)
        }
        try await Task.sleep(for: .milliseconds(150))
        let start = ContinuousClock.now
        await server.shutdown()
        let took = ContinuousClock.now - start
        let (response, end) = try await inFlight
        #expect(response.text == "finished")
        #expect(end == .eof)
        #expect(try await blockingIO { idle.readToEnd().end } == .eof)
        // The held connection was cut at the shutdown bound, not left open.
        #expect([.eof, .reset].contains(try await blockingIO { held.readToEnd().end }))
        // The upper bound only proves the 4 s shutdown bound cut the held connection (it would hang
        // otherwise); generous, since a loaded CI machine is slow.
        #expect(took >= .milliseconds(300) && took < .seconds(30), "\(took)")
        #expect(throws: SocketError.self) { try RawConnection(port: port) }
        await server.shutdown()  // idempotent
    }

    @Test func aTakenPortIsReportedAsSuch() async throws {
        try await withStubServer(StubSet([stub("a", "GET", "/a")]), configuration: testConfiguration()) { server in
            do {
                _ = try await StubServer.start(stubs: StubSet([]), configuration: testConfiguration { $0.port = server.port })
                Issue.record("a second server bound the same port")
            } catch let error as StubServerError {
                #expect(error.isAddressInUse)
                #expect(error.message.contains("already in use"))
            }
        }
        await #expect(throws: StubServerError.self) {
            _ = try await StubServer.start(stubs: StubSet([]), configuration: testConfiguration { $0.rewriteOrigins = ["not an origin"] })
        }
    }
}

/// A template that does not compile is an error of the stub files wherever they are loaded.
@Suite struct ServerTemplateCheckTests {
    @Test func withStubServerLoadingRefusesABrokenTemplateWithItsLocation() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("page.json", #"{"request": {"path": "/page"}, "response": {"status": 200, "template": "page.mustache"}}"#)
        try folder.write("page.mustache", "{{#open}}\n")
        await #expect {
            try await withStubServer(loading: [folder.path], configuration: testConfiguration()) { _ in }
        } throws: { error in
            guard let error = error as? StubServerError else { return false }
            return error.diagnostics.contains { $0.severity == .error && $0.location.path.hasSuffix("page.mustache") }
        }
    }

    @Test func aReloadWithABrokenTemplateKeepsServingTheLastGoodSet() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("page.json", #"{"request": {"path": "/page"}, "response": {"status": 200, "template": "page.mustache"}}"#)
        try folder.write("page.mustache", "version 1")
        try await withStubServer(loading: [folder.path], configuration: testConfiguration()) { server in
            try folder.write("page.mustache", "{{#open}} version 2")
            let outcome = await server.reload()
            #expect(!outcome.accepted)
            #expect(outcome.diagnostics.contains { $0.severity == .error && $0.location.path.hasSuffix("page.mustache") }, "\(outcome.diagnostics)")
            let response = try await blockingIO { try rawGET(server.port, "/page") }
            // The stubs are kept; the template is read when answered, so the request that meets
            // the broken file gets the 500 problem that says so (never half a template).
            #expect(response.status == 500, "\(response.status) \(response.text)")
            #expect(response.header("Content-Type") == "application/problem+json")

            try folder.write("page.mustache", "version 3")
            #expect(await server.reload().accepted)
            #expect(try await blockingIO { try rawGET(server.port, "/page") }.text == "version 3")
        }
    }
}
