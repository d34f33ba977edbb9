import APICheckCrawler
import APICheckHTTPFetcher
import APICheckHypermedia
import Foundation
import Logging

/// Issue #5's second peer: the crawl's own HTTP client (AsyncHTTPClient through ``HTTPFetcher``,
/// configured as `apicheck crawl` configures it) fetching a served graph's resources with the
/// same concurrency, and doing nothing else: no link extraction, no rules, no report. What the
/// crawl loses against this figure is the crawler's own cost; what this loses against `wrk` is
/// the client library's.
enum ClientBenchmark {
    static func run(root: String, resources: Int, concurrency: Int, rounds: Int) async throws {
        guard let base = URL(string: root), base.host == "127.0.0.1" else {
            Benchmark.fail("--root must be an http://127.0.0.1:PORT/ URL (loopback only), not \(root)")
        }
        let urls = [URL(string: "\(root)")!] + (1..<max(resources, 1)).map { URL(string: "\(root)r/\($0)")! }
        print("\nHTTPFetcher (AsyncHTTPClient) GET of \(urls.count) resources, \(concurrency) in flight, \(rounds) rounds (the best is reported)")
        var best = 0.0
        try await withHTTPFetcher(concurrency: concurrency, logger: Logger(label: "apicheck.bench")) { fetcher in
            for round in 1...rounds {
                let start = ContinuousClock.now
                let failures = await fetchAll(urls, with: fetcher, concurrency: concurrency)
                let seconds = (ContinuousClock.now - start).seconds
                let rate = Double(urls.count) / seconds
                best = max(best, rate)
                print("  round \(round): \(String(format: "%.3f", seconds)) s, \(Int(rate)) requests/s\(failures > 0 ? ", \(failures) failed" : "")")
            }
        }
        print("client-ceiling-requests-per-second \(Int(best))")
    }

    private static func fetchAll(_ urls: [URL], with fetcher: HTTPFetcher, concurrency: Int) async -> Int {
        await withTaskGroup(of: Bool.self) { group in
            var pending = urls.makeIterator()
            var failures = 0
            func startNext() -> Bool {
                guard let url = pending.next() else { return false }
                group.addTask {
                    do {
                        let response = try await fetcher.fetch(FetchRequest(method: "GET", url: url), maximumBodyBytes: 10 << 20, timeout: .seconds(30))
                        return (200..<300).contains(response.status)
                    } catch {
                        return false
                    }
                }
                return true
            }
            for _ in 0..<concurrency where !startNext() { break }
            while let succeeded = await group.next() {
                if !succeeded { failures += 1 }
                _ = startNext()
            }
            return failures
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
