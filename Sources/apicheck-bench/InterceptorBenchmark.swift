import APICheckInterceptor
import APICheckModel
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ceiling: a protocol that answers every request with the same bytes and does nothing else.
final class FixedResponseProtocol: URLProtocol {
    static let body = Data(String(repeating: "x", count: 300).utf8)

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url,
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json", "Content-Length": "300"])
        else { return }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Self.body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

/// Issue #3's figures: requests per second through URLSession, StubURLProtocol vs the ceiling.
enum InterceptorBenchmark {
    static func run(requests: Int, concurrency: Int, rounds: Int) async {
        print("\nURLSession requests/s, \(requests) requests, \(concurrency) in flight, median of \(rounds) rounds; StubURLProtocol serves a 10,000-stub set")
        var stubs: [Stub] = []
        for index in 0..<10_000 {
            guard let pattern = try? PathPattern.parse("/items/\(index)").get() else { continue }
            stubs.append(Stub(
                id: "\(index)", name: "item \(index)", request: RequestPattern(method: "GET", path: pattern),
                response: StubResponse(status: 200, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: .bytes(FixedResponseProtocol.body)),
                source: SourceLocation(path: "bench.xml")
            ))
        }
        let interceptor = StubInterceptor(stubs: StubSet(stubs))
        let stubbed = interceptor.makeSession()
        let ceilingConfiguration = URLSessionConfiguration.ephemeral
        ceilingConfiguration.protocolClasses = [FixedResponseProtocol.self]
        let ceiling = URLSession(configuration: ceilingConfiguration)
        let urls = (0..<requests).map { URL(string: "http://localhost:3000/items/\(($0 &* 7919) % 10_000)")! }

        for style in ["async/await", "completion handler"] {
            // Rounds alternate between the two sessions so drift on the machine hits both alike.
            let sessions = [("trivial URLProtocol (ceiling)", ceiling), ("StubURLProtocol", stubbed)]
            var samples: [[Double]] = [[], []]
            for _ in 0..<rounds {
                for (index, (label, session)) in sessions.enumerated() {
                    interceptor.journal.clear()
                    let start = ContinuousClock.now
                    let ok = style == "async/await"
                        ? await asyncRun(session, urls, concurrency) : await handlerRun(session, urls, concurrency)
                    let seconds = (ContinuousClock.now - start).inSeconds
                    if ok != urls.count { Benchmark.fail("\(label): only \(ok) of \(urls.count) requests succeeded") }
                    samples[index].append(Double(urls.count) / seconds)
                }
            }
            let results = sessions.enumerated().map { index, session in (session.0, samples[index].sorted()[samples[index].count / 2]) }
            let ratio = results[1].1 / results[0].1
            print(String(format: "  %-20@ %-32@ %8.0f req/s", style, results[0].0, results[0].1))
            print(String(format: "  %-20@ %-32@ %8.0f req/s   %.2fx the ceiling (target ≥ 0.9x: %@)", style, results[1].0, results[1].1, ratio, ratio >= 0.9 ? "met" : "MISSED"))
        }
        stubbed.invalidateAndCancel()
        ceiling.invalidateAndCancel()
    }

    static func asyncRun(_ session: URLSession, _ urls: [URL], _ concurrency: Int) async -> Int {
        await withTaskGroup(of: Bool.self) { group in
            var next = 0
            var succeeded = 0
            while next < min(concurrency, urls.count) {
                let url = urls[next]
                group.addTask { (try? await session.data(from: url))?.0.count == 300 }
                next += 1
            }
            for await ok in group {
                if ok { succeeded += 1 }
                if next < urls.count {
                    let url = urls[next]
                    group.addTask { (try? await session.data(from: url))?.0.count == 300 }
                    next += 1
                }
            }
            return succeeded
        }
    }

    static func handlerRun(_ session: URLSession, _ urls: [URL], _ concurrency: Int) async -> Int {
        await withCheckedContinuation { continuation in
            let state = HandlerState(total: urls.count)
            let slots = DispatchSemaphore(value: concurrency)
            DispatchQueue.global().async {
                for url in urls {
                    slots.wait()
                    session.dataTask(with: url) { data, _, _ in
                        if let done = state.finish(ok: data?.count == 300) { continuation.resume(returning: done) }
                        slots.signal()
                    }.resume()
                }
            }
        }
    }
}

/// Counts finished requests; reports the success count once all have finished.
final class HandlerState: @unchecked Sendable {
    private let lock = NSLock()
    private var finished = 0
    private var succeeded = 0
    private let total: Int

    init(total: Int) { self.total = total }

    func finish(ok: Bool) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        finished += 1
        if ok { succeeded += 1 }
        return finished == total ? succeeded : nil
    }
}

extension Duration {
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
