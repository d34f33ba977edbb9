@testable import APICheckInterceptor
import APICheckModel
import APICheckTesting
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct StubInterceptorTests {
    @Test func servesStatusHeadersCookiesAndTheRealContentLength() async throws {
        let expires = try #require(HTTPDate.parse("Sat, 16-Nov-2030 15:00:00 GMT"))
        let interceptor = StubInterceptor(stubs: StubSet([stub(
            "users", "GET", "/users", status: 201,
            headers: [HTTPHeader(name: "Content-Type", value: "application/xml"), HTTPHeader(name: "Content-Length", value: "50"), HTTPHeader(name: "X-Multi", value: "a"), HTTPHeader(name: "X-Multi", value: "b")],
            cookies: [StubCookie(name: "C1", value: "v1", path: "/", secure: false, expires: expires), StubCookie(name: "C2", value: "v2", path: "/")],
            body: text("<some-xml>this is the body!</some-xml>")
        )]))
        let configuration = URLSessionConfiguration.ephemeral
        let storage = HTTPCookieStorage.sharedCookieStorage(forGroupContainerIdentifier: "apicheck-\(UUID().uuidString)")
        configuration.httpCookieStorage = storage
        let session = interceptor.makeSession(configuration: configuration)
        let (data, response) = try await session.data(from: url("/users"))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 201)
        #expect(String(decoding: data, as: UTF8.self) == "<some-xml>this is the body!</some-xml>")
        #expect(http.value(forHTTPHeaderField: "Content-Length") == "38")
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/xml")
        #expect(http.value(forHTTPHeaderField: "X-Multi") == "a, b")
        let fields = try #require(http.allHeaderFields as? [String: String])
        let cookies = HTTPCookie.cookies(withResponseHeaderFields: fields, for: url("/users"))
        #expect(cookies.map(\.name) == ["C1", "C2"])
        #expect(cookies.first?.expiresDate == expires)
        #expect(Set(storage.cookies(for: url("/users"))?.map(\.name) ?? []) == ["C1", "C2"])
    }

    @Test func bodyFilesAreByteExactAndReadWhenSent() async throws {
        let folder = try TemporaryFolder()
        let bytes = Data((0..<256).map { UInt8($0) } + [0xFF, 0xD8, 0x00])
        let path = try folder.write("image.bin", bytes)
        let file = StubFile(declaredPath: "image.bin", url: URL(fileURLWithPath: path), byteCount: bytes.count)
        let interceptor = StubInterceptor(stubs: StubSet([stub("image", "GET", "/image", body: .file(file))]))
        let session = interceptor.makeSession()
        #expect(try await session.data(from: url("/image")).0 == bytes)
        try FileManager.default.removeItem(atPath: path)
        let error = await #expect(throws: URLError.self) { try await session.data(from: url("/image")) }
        #expect(error?.code == .fileDoesNotExist)
        #expect(error?.localizedDescription.contains("is gone") == true)
        #expect(interceptor.journal.all.last.map { if case .failed = $0.outcome { true } else { false } } == true)
    }

    @Test func unmatchedRequestsFailWithTheNearMissReport() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([stub("rent", "PUT", "/cart/AzCa3T")]))
        let session = interceptor.makeSession()
        let error = await #expect(throws: URLError.self) { try await session.data(from: url("/cart/AzCa3T")) }
        #expect(error?.code == .resourceUnavailable)
        #expect(error?.localizedDescription.contains("No stub matches GET /cart/AzCa3T") == true)
        #expect(error?.localizedDescription.contains("method: expected PUT, got GET") == true)
        #expect(interceptor.journal.unmatched.count == 1)
    }

    @Test(arguments: StubFailure.allCases)
    func failuresSurfaceAsURLErrors(failure: StubFailure) async throws {
        let interceptor = StubInterceptor(stubs: StubSet([stub("broken", "GET", "/broken", failure: failure)]))
        let session = interceptor.makeSession()
        let error = await #expect(throws: URLError.self) { try await session.data(from: url("/broken")) }
        #expect(error?.code == failure.urlErrorCode)
        // The same through a completion handler.
        let code: URLError.Code? = await withCheckedContinuation { continuation in
            session.dataTask(with: url("/broken")) { _, _, error in continuation.resume(returning: (error as? URLError)?.code) }.resume()
        }
        #expect(code == failure.urlErrorCode)
    }

    @Test func completionHandlersAndDataForRequestAgree() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([stub("root", "GET", "/", body: text("root"))]))
        let session = interceptor.makeSession()
        let viaHandler: String = await withCheckedContinuation { continuation in
            session.dataTask(with: URLRequest(url: url("/"))) { data, _, _ in
                continuation.resume(returning: String(decoding: data ?? Data(), as: UTF8.self))
            }.resume()
        }
        #expect(viaHandler == "root")
        #expect(try await session.data(for: URLRequest(url: url("/"))).0 == Data("root".utf8))
    }

    @Test func latencyDelaysOnlyItsOwnRequest() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([
            stub("slow", "GET", "/slow", body: text("slow"), latency: StubLatency(request: 1.5, response: 0.5)),
            stub("fast", "GET", "/fast", body: text("fast")),
        ]))
        let session = interceptor.makeSession()
        let slowFinished = Mutex(false)
        let start = ContinuousClock.now
        async let slow: Duration = {
            _ = try await session.data(from: url("/slow"))
            slowFinished.withLock { $0 = true }
            return ContinuousClock.now - start
        }()
        _ = try await session.data(from: url("/fast"))
        #expect(slowFinished.withLock { $0 } == false, "the fast request must not wait for the slow one")
        let slowTook = try await slow
        #expect(slowTook >= .milliseconds(2000), "request + response latency: \(slowTook)")
    }

    @Test func cancellationDuringLatency() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([stub("slow", "GET", "/slow", latency: StubLatency(request: 5))]))
        let session = interceptor.makeSession()
        let code: URLError.Code? = await withCheckedContinuation { continuation in
            let task = session.dataTask(with: url("/slow")) { _, _, error in continuation.resume(returning: (error as? URLError)?.code) }
            task.resume()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { task.cancel() }
        }
        #expect(code == .cancelled)
    }

    /// Guards against the Foundation crash of calling the URLProtocol client later from another queue.
    @Test func aThousandConcurrentDelayedRequests() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([stub("item", "GET", "/items/{id}", body: text("ok"), latency: StubLatency(request: 0.05))]))
        let session = interceptor.makeSession()
        let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
            for index in 0..<1000 { group.addTask { try await session.data(from: url("/items/\(index)")).0 } }
            var bodies: [Data] = []
            for try await body in group { bodies.append(body) }
            return bodies
        }
        #expect(bodies.count == 1000)
        #expect(bodies.allSatisfy { $0 == Data("ok".utf8) })
        #expect(interceptor.journal.count == 1000)
    }

    /// The issue's load case: 10,000 requests in flight at once through completion handlers, half
    /// of them unmatched; every one gets exactly one answer and one journal entry.
    @Test func tenThousandConcurrentRequests() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([stub("item", "GET", "/items/{id}", body: text("ok"))]))
        let session = interceptor.makeSession()
        let outcomes = Mutex<(ok: Int, unmatched: Int, other: Int)>((0, 0, 0))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for index in 0..<10_000 {
                group.enter()
                session.dataTask(with: url(index.isMultiple(of: 2) ? "/items/\(index)" : "/missing/\(index)")) { data, _, error in
                    outcomes.withLock {
                        if data == Data("ok".utf8) { $0.ok += 1 } else if (error as? URLError)?.code == .resourceUnavailable { $0.unmatched += 1 } else { $0.other += 1 }
                    }
                    group.leave()
                }.resume()
            }
            group.notify(queue: .global()) { done.resume() }
        }
        let counts = outcomes.withLock { $0 }
        #expect(counts.ok == 5_000 && counts.unmatched == 5_000 && counts.other == 0)
        #expect(interceptor.journal.count == 10_000 && interceptor.journal.unmatched.count == 5_000)
    }

    @Test func redirectsAreFollowedWithRFC9110Methods() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([
            stub("moved", "GET", "/old", status: 301, headers: [HTTPHeader(name: "Location", value: "/new")]),
            stub("new", "GET", "/new", body: text("new")),
            stub("created", "POST", "/orders", status: 303, headers: [HTTPHeader(name: "Location", value: "\(origin)/orders/1")]),
            stub("order", "GET", "/orders/1", body: text("order 1")),
            stub("loop a", "GET", "/a", status: 302, headers: [HTTPHeader(name: "Location", value: "/b")]),
            stub("loop b", "GET", "/b", status: 302, headers: [HTTPHeader(name: "Location", value: "/a")]),
        ]))
        let session = interceptor.makeSession()
        let (data, response) = try await session.data(from: url("/old"))
        #expect(String(decoding: data, as: UTF8.self) == "new")
        #expect(response.url == url("/new"))
        var post = URLRequest(url: url("/orders"))
        post.httpMethod = "POST"
        post.httpBody = Data("{}".utf8)
        #expect(try await session.data(for: post).0 == Data("order 1".utf8))
        #expect(interceptor.journal.all.suffix(2).map(\.request.method) == ["POST", "GET"])
        let error = await #expect(throws: URLError.self) { try await session.data(from: url("/a")) }
        #expect(error?.code == .httpTooManyRedirects)
    }

    @Test func headAnswersWithoutABodyFromTheGETStub() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([stub("root", "GET", "/", body: text("twelve bytes"))]))
        var request = URLRequest(url: url("/"))
        request.httpMethod = "HEAD"
        let (data, response) = try await interceptor.makeSession().data(for: request)
        #expect(data.isEmpty)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Length") == "12")
        #expect(interceptor.journal.all.first?.request.method == "HEAD")
    }

    @Test func requestBodiesFromHTTPBodyAndStreamMatch() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([
            stub("rent", "PUT", "/cart", body: text("rented"), bodyConstraints: [.jsonPointer(path: "/movieId", equals: "iBZQ9")])
        ]))
        let session = interceptor.makeSession()
        var request = URLRequest(url: url("/cart"))
        request.httpMethod = "PUT"
        request.httpBody = Data(#"{"movieId":"iBZQ9"}"#.utf8)
        #expect(try await session.data(for: request).0 == Data("rented".utf8))
        request.httpBody = nil
        request.httpBodyStream = InputStream(data: Data(#"{"movieId":"iBZQ9"}"#.utf8))
        #expect(try await session.data(for: request).0 == Data("rented".utf8))
        #expect(interceptor.journal.all.map(\.bodyText) == [#"{"movieId":"iBZQ9"}"#, #"{"movieId":"iBZQ9"}"#])
    }

    @Test func scenariosCanChangeBetweenRequests() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([
            stub("locked", "POST", "/session", status: 423, scenario: ScenarioTag(useCase: "welcome/sign-in", name: "fail-locked")),
            stub("ok", "POST", "/session", status: 200, scenario: ScenarioTag(useCase: "welcome/sign-in", name: "success")),
        ]))
        let session = interceptor.makeSession()
        var request = URLRequest(url: url("/session"))
        request.httpMethod = "POST"
        func status() async throws -> Int { (try await session.data(for: request).1 as? HTTPURLResponse)?.statusCode ?? 0 }
        #expect(try await status() == 423)
        interceptor.select("success", for: "welcome/sign-in")
        #expect(try await status() == 200)
        interceptor.clearSelection(for: "welcome/sign-in")
        #expect(try await status() == 423)
    }

    @Test func sequencesAnswerInOrderThenRepeatOrFail() async throws {
        let responses = [202, 202, 200].map { StubResponse(status: $0) }
        let interceptor = StubInterceptor(stubs: StubSet([
            stub("job", "GET", "/job", sequence: StubSequence(responses: responses, afterLast: .repeatLast)),
            stub("token", "POST", "/token", sequence: StubSequence(responses: [StubResponse(status: 201)], afterLast: .fail)),
        ]))
        let session = interceptor.makeSession()
        var statuses: [Int] = []
        for _ in 0..<5 { statuses.append((try await session.data(from: url("/job")).1 as? HTTPURLResponse)?.statusCode ?? 0) }
        #expect(statuses == [202, 202, 200, 200, 200])
        var post = URLRequest(url: url("/token"))
        post.httpMethod = "POST"
        #expect((try await session.data(for: post).1 as? HTTPURLResponse)?.statusCode == 201)
        let error = await #expect(throws: URLError.self) { try await session.data(for: post) }
        #expect(error?.localizedDescription.contains("exhausted") == true)
        interceptor.reset()
        #expect((try await session.data(from: url("/job")).1 as? HTTPURLResponse)?.statusCode == 202)
    }

    @Test func journalVerification() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([stub("any", nil, "/**")]))
        let session = interceptor.makeSession()
        _ = try await session.data(from: url("/"))
        var put = URLRequest(url: url("/cart/AzCa3T"))
        put.httpMethod = "PUT"
        put.httpBody = Data(#"{"movieId":"iBZQ9"}"#.utf8)
        _ = try await session.data(for: put)
        _ = try await session.data(from: url("/library"))
        let journal = interceptor.journal
        #expect(journal.verify(method: "GET", path: "/", count: .exactly(1)) == nil)
        #expect(journal.verify(method: "PUT", path: "/cart/{id}", count: .exactly(1), body: .jsonPointer(path: "/movieId", equals: "iBZQ9")) == nil)
        #expect(journal.verify(method: "PUT", path: "/cart/{id}", body: .jsonPointer(path: "/movieId", equals: "nope")) != nil)
        let failure = try #require(journal.verify(method: "DELETE", path: "/cart/{id}"))
        #expect(failure.contains("requested 0 times"))
        #expect(failure.contains("2. PUT /cart/AzCa3T"))
        #expect(journal.verifyOrder([("GET", "/"), ("GET", "/library")]) == nil)
        #expect(journal.verifyOrder([("GET", "/library"), ("PUT", "/cart/{id}")]) != nil)
        #expect(journal.verify(method: "GET", path: "/library", count: .exactly(1)) == nil)
        #expect(journal.verifyOrder([("GET", "/"), ("PUT", "/cart/AzCa3T")]) == nil)
        #expect(journal.unmatched.isEmpty)
    }

    @Test func parallelInterceptorsNeverSeeEachOthersStubs() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await withStubs { stubs in
                        try stubs.stub(.get("/who")) { _ in .text("session \(index)") }
                        for _ in 0..<10 {
                            let body = try await stubs.session.data(from: url("/who")).0
                            #expect(String(decoding: body, as: UTF8.self) == "session \(index)")
                        }
                        #expect(stubs.journal.count == 10)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func passthroughReachesTheRealNetworkOnlyWhenAsked() async throws {
        let server = try LoopbackServer(body: "from the network")
        let real = URL(string: "http://127.0.0.1:\(server.port)/live")!
        let hermetic = StubInterceptor(stubs: StubSet([stub("stubbed", "GET", "/stubbed", body: text("stub"))]))
        await #expect(throws: URLError.self) { try await hermetic.makeSession().data(from: real) }
        let open = StubInterceptor(stubs: StubSet([stub("stubbed", "GET", "/stubbed", body: text("stub"))]), options: .init(passthrough: true))
        let session = open.makeSession()
        #expect(try await session.data(from: real).0 == Data("from the network".utf8))
        #expect(try await session.data(from: URL(string: "http://127.0.0.1:\(server.port)/stubbed")!).0 == Data("stub".utf8))
        #expect(open.journal.all.first.map { if case .passedThrough = $0.outcome { true } else { false } } == true)
    }

    @Test func aSessionWithoutAnInterceptorFailsClearly() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        let error = await #expect(throws: URLError.self) { try await URLSession(configuration: configuration).data(from: url("/")) }
        #expect(error?.localizedDescription.contains("not made by StubInterceptor") == true)
    }
}

/// Each configuration gets a protocol class of its own, and a request finds its interceptor by
/// that class: no reflection, no header, the same on every platform.
@Suite struct SessionBindingTests {
    @Test func sessionsOfTwoInterceptorsEachAnswerWithTheirOwnStubs() async throws {
        let first = StubInterceptor(stubs: StubSet([stub("first", "GET", "/who", body: text("first"))]))
        let second = StubInterceptor(stubs: StubSet([stub("second", "GET", "/who", body: text("second"))]))
        let sessions = [first.makeSession(), second.makeSession(), first.makeSession()]
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for round in 0..<30 {
                let index = round % sessions.count
                let session = sessions[index]
                group.addTask { (index, String(decoding: try await session.data(from: url("/who")).0, as: UTF8.self)) }
            }
            return try await group.reduce(into: [Int: Set<String>]()) { $0[$1.0, default: []].insert($1.1) }
        }
        #expect(answers == [0: ["first"], 1: ["second"], 2: ["first"]])
        #expect(first.journal.all.count == 20 && second.journal.all.count == 10)
        let classes = sessions.compactMap { $0.configuration.protocolClasses?.first }.map(ObjectIdentifier.init)
        #expect(Set(classes).count == 3, "a class per configuration")
    }

    @Test func aSessionWhoseInterceptorIsGoneFailsClearly() async throws {
        var interceptor: StubInterceptor? = StubInterceptor(stubs: StubSet([stub("a", "GET", "/a", body: text("a"))]))
        let configuration = try #require(interceptor?.configuration())
        // The session keeps its interceptor alive, as it keeps its delegate; a bare class does not.
        configuration.connectionProxyDictionary = [:]
        let session = URLSession(configuration: configuration)
        interceptor = nil
        let error = await #expect(throws: URLError.self) { try await session.data(from: url("/a")) }
        #expect(error?.localizedDescription.contains("StubInterceptor that made this session's configuration is gone") == true)
    }

    @Test func aSessionKeepsItsInterceptorAlive() async throws {
        let session = StubInterceptor(stubs: StubSet([stub("a", "GET", "/a", body: text("kept"))])).makeSession()
        #expect(try await session.data(from: url("/a")).0 == Data("kept".utf8))
    }

    @Test func bindingsGoWithTheirInterceptors() throws {
        var classes: [AnyClass] = []
        for _ in 0..<1_000 {
            let interceptor = StubInterceptor(stubs: .empty)
            classes += [interceptor.configuration(), interceptor.configuration()].compactMap { $0.protocolClasses?.first }
            #expect(classes.last.flatMap { SessionBinding.binding(of: $0) }?.interceptor === interceptor)
        }
        #expect(Set(classes.map(ObjectIdentifier.init)).count == 2_000, "never reused")
        #expect(classes.allSatisfy { SessionBinding.binding(of: $0) == nil }, "1,000 interceptors made and released leave no binding behind")
    }

    @Test func anUnmatchedRequestsErrorCarriesItsReport() async throws {
        let interceptor = StubInterceptor(stubs: StubSet([stub("rent", "PUT", "/cart/AzCa3T")]))
        let error = await #expect(throws: URLError.self) { try await interceptor.makeSession().data(from: url("/cart/AzCa3T")) }
        let report = try #require(error?.nearMissReport)
        #expect(report.request.method == "GET")
        #expect(report.nearMisses.first?.stub.name == "rent")
    }
}
