import APICheckModel
import APICheckStubFiles
import APICheckXML
import Foundation

/// `swift run -c release apicheck-bench [stubs|interceptor|all] [options]`
///
/// `stubs` prints issue #2's figures: loading N generated XML stub files against bare libxml2
/// parsing the same files in the same run (the ratio is the figure), and the cost of
/// `StubSet.match` at 100, 10,000 and 100,000 stubs. `interceptor` prints issue #3's: requests per
/// second through URLSession with StubURLProtocol against a trivial URLProtocol (the ceiling).
@main
enum Benchmark {
    static func main() async throws {
        let arguments = Arguments(CommandLine.arguments.dropFirst())
        if arguments.flag("--help") {
            print("""
                usage: apicheck-bench [stubs|interceptor|all] [--files N] [--rounds N] [--lookups N] [--keep DIR] [--requests N] [--concurrency N]
                       apicheck-bench client --root http://127.0.0.1:PORT/ [--resources N] [--concurrency N] [--rounds N]
                       apicheck-bench nio-baseline --body FILE [--port N] [--cert FILE --key FILE] [--h2c]
                  stubs         stub-file loading and StubSet.match (issue #2)
                  interceptor   URLSession requests/s through StubURLProtocol vs a trivial URLProtocol (issue #3)
                  all           both (default)
                  client        the crawl's HTTP client alone fetching a served graph (Benchmarks/crawl.sh, issue #5)
                  nio-baseline  a minimal SwiftNIO HTTP server answering every request with FILE's bytes on
                                127.0.0.1 (a peer in Benchmarks/serve.sh, issue #4); --port 0 picks a free one;
                                with --cert/--key (PEM) over TLS, HTTP/2 by ALPN beside HTTP/1.1 (issue #34);
                                --h2c: cleartext HTTP/2 only (prior knowledge)
                  --files N     stub files to generate and load (default 10000)
                  --rounds N    timed rounds per measurement; the median is reported (default 5)
                  --lookups N   match() calls per set size (default 1000000)
                  --keep DIR    generate into DIR and keep it (default: a temporary folder, removed)
                  --requests N  requests per interceptor round (default 20000)
                  --concurrency N  requests in flight (default 1000)
                """)
            return
        }
        let mode = arguments.values.first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? "all"
        guard ["stubs", "interceptor", "all", "client", "nio-baseline"].contains(mode) else {
            fail("unknown benchmark \"\(mode)\"; use stubs, interceptor, all, client or nio-baseline")
        }
        if mode == "nio-baseline" {
            guard let body = arguments.string("--body") else { fail("nio-baseline needs --body FILE (the bytes to answer with)") }
            let tls = try arguments.string("--cert").map { certificate in
                guard let key = arguments.string("--key") else { fail("--cert needs --key") }
                return try MinimalNIOServer.tlsContext(certificate: certificate, key: key)
            }
            try await MinimalNIOServer.run(bodyPath: body, port: arguments.int("--port") ?? 0, tls: tls, cleartextHTTP2: arguments.flag("--h2c"))
            return
        }
        if mode == "client" {
            guard let root = arguments.string("--root") else { fail("client needs --root http://127.0.0.1:PORT/ (a served graph)") }
            try await ClientBenchmark.run(
                root: root, resources: arguments.int("--resources") ?? 10_000, concurrency: arguments.int("--concurrency") ?? 64,
                rounds: max(arguments.int("--rounds") ?? 3, 1))
            return
        }
        let fileCount = arguments.int("--files") ?? 10_000
        let rounds = max(arguments.int("--rounds") ?? 5, 1)
        let lookups = arguments.int("--lookups") ?? 1_000_000

        print("APICheck benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
        if mode != "interceptor" {
            try loading(fileCount: fileCount, rounds: rounds, keep: arguments.string("--keep"))
            matching(lookups: lookups, rounds: rounds)
        }
        if mode != "stubs" {
            await InterceptorBenchmark.run(requests: arguments.int("--requests") ?? 20_000, concurrency: arguments.int("--concurrency") ?? 1000, rounds: rounds)
        }
    }

    // MARK: Loading

    static func loading(fileCount: Int, rounds: Int, keep: String?) throws {
        let folder = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-bench-\(UUID().uuidString)")
        defer { if keep == nil { try? FileManager.default.removeItem(at: folder) } }
        let paths = try generateStubFiles(count: fileCount, into: folder)
        let bytes = paths.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
        print("\nLoading \(fileCount) XML stub files (\(bytes / 1024) KiB) from \(folder.path)")

        _ = StubLoader().load([folder.path])  // warm the page cache and the allocator
        let bare = median(rounds) {
            for path in paths where !LibXML2Baseline.parseAndFree(path: path) {
                fail("bare libxml2 could not parse \(path)")
            }
        }
        var stubCount = 0
        let serial = median(rounds) {
            let result = StubLoader(options: StubLoadOptions(concurrent: false)).load([folder.path])
            if result.hasErrors { fail("generated stubs must be valid: \(result.errors.prefix(3))") }
            stubCount = result.stubSet.count
        }
        let concurrent = median(rounds) {
            _ = StubLoader(options: StubLoadOptions(concurrent: true)).load([folder.path])
        }
        print(row("bare libxml2 (read + xmlReadMemory + xmlFreeDoc), 1 thread", bare))
        print(row("StubLoader, 1 thread (\(stubCount) stubs)", serial) + String(format: "   %.2fx bare libxml2", serial / bare))
        print(row("StubLoader, all cores", concurrent) + String(format: "   %.2fx bare libxml2", concurrent / bare))
        print(String(format: "target: StubLoader ≤ 2x bare libxml2 → 1 thread %@, all cores %@",
                     serial / bare <= 2 ? "met" : "MISSED", concurrent / bare <= 2 ? "met" : "MISSED"))
    }

    static func generateStubFiles(count: Int, into folder: URL) throws -> [String] {
        var paths: [String] = []
        for index in 0..<count {
            let group = folder.appendingPathComponent("group-\(index % 100)")
            if index < 100 { try FileManager.default.createDirectory(at: group, withIntermediateDirectories: true) }
            let file = group.appendingPathComponent("stub-\(index).xml")
            let xml = """
                <?xml version="1.0" encoding="UTF-8" ?>
                <http-response statusCode="200">
                  <annotation name="item \(index)" host="example.com" port="80" scheme="http"
                              uri-path="/r\(index % 100)/items/\(index)" request-method="GET">Item \(index) of group \(index % 100).</annotation>
                  <headers>
                    <header name="Content-Type" value="application/json; charset=utf-8" />
                    <header name="Cache-Control" value="no-cache" />
                    <header name="ETag" value="&quot;\(index)&quot;" />
                  </headers>
                  <cookies>
                    <cookie name="session" value="s\(index)" path="/" secure="true" expires="Sat, 16-Nov-2013 15:00:00 GMT" />
                  </cookies>
                  <body><![CDATA[{"id":"\(index)","name":"Item \(index)","_links":[{"rel":"self","href":"http://localhost:3000/r\(index % 100)/items/\(index)"},{"rel":"group","href":"http://localhost:3000/r\(index % 100)","type":"application/json"}]}]]></body>
                </http-response>
                """
            try Data(xml.utf8).write(to: file)
            paths.append(file.path)
        }
        return paths
    }

    // MARK: Matching

    static func matching(lookups: Int, rounds: Int) {
        print("\nStubSet.match, \(lookups) lookups per row (median of \(rounds) rounds); 90% literal, 8% template, 2% glob stubs")
        for size in [100, 10_000, 100_000] {
            let (set, literalRequests, templateRequests) = makeSet(size: size)
            for (label, requests) in [("literal hit", literalRequests), ("template hit", templateRequests)] {
                var matched = 0
                let seconds = median(rounds) {
                    matched = 0
                    for index in 0..<lookups {
                        if case .matched = set.match(requests[index % requests.count]) { matched += 1 }
                    }
                }
                if matched != lookups { fail("every benchmark request must match (\(matched) of \(lookups))") }
                let nanoseconds = seconds / Double(lookups) * 1e9
                print(String(format: "  %7d stubs  %-13@ %8.0f ns/lookup  %@", size, label, nanoseconds, nanoseconds < 2000 ? "(target < 2 µs met)" : "(target < 2 µs MISSED)"))
            }
            let miss = StubRequest(method: "GET", path: "/nowhere/\(size)")
            let missSeconds = median(rounds) { _ = set.match(miss) }
            print(String(format: "  %7d stubs  %-13@ %8.0f ns (near-miss report for an unmatched request; searches at most %d stubs)", size, "miss", missSeconds * 1e9, StubSet.nearMissSearchLimit))
        }
    }

    static func makeSet(size: Int) -> (StubSet, [StubRequest], [StubRequest]) {
        var stubs: [Stub] = []
        var literal: [StubRequest] = []
        var templated: [StubRequest] = []
        for index in 0..<size {
            let group = index % max(size / 50, 1)
            let path: String
            switch index % 50 {
            case 0...44:
                path = "/r\(group)/items/\(index)"
                if literal.count < 4096 { literal.append(StubRequest(method: "GET", path: path)) }
            case 45...48:
                path = "/t\(group)/things-\(index)/{id}"
                if templated.count < 4096 { templated.append(StubRequest(method: "GET", path: "/t\(group)/things-\(index)/x\(index)")) }
            default:
                path = "/g\(group)/files-\(index)/**"
            }
            guard let pattern = try? PathPattern.parse(path).get() else { fail("invalid generated pattern \(path)") }
            stubs.append(Stub(
                id: "\(index)", name: "stub \(index)", request: RequestPattern(method: "GET", path: pattern),
                response: StubResponse(status: 200), source: SourceLocation(path: "bench.xml")
            ))
        }
        return (StubSet(stubs), literal.shuffled(), templated.shuffled())
    }

    // MARK: Helpers

    /// A measurement that would be meaningless: say why and stop.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("apicheck-bench: error: \(message)\n".utf8))
        exit(1)
    }

    static func median(_ rounds: Int, _ body: () -> Void) -> Double {
        var samples: [Double] = []
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            body()
            let elapsed = ContinuousClock.now - start
            samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return samples.sorted()[samples.count / 2]
    }

    static func row(_ label: String, _ seconds: Double) -> String {
        String(format: "  %-52@ %8.1f ms", label, seconds * 1000)
    }
}

struct Arguments {
    let values: [String]

    init(_ values: ArraySlice<String>) {
        self.values = Array(values)
    }

    func flag(_ name: String) -> Bool { values.contains(name) }

    func string(_ name: String) -> String? {
        guard let index = values.firstIndex(of: name), index + 1 < values.count else { return nil }
        return values[index + 1]
    }

    func int(_ name: String) -> Int? { string(name).flatMap { Int($0) } }
}
