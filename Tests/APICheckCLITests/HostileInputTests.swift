import APICheckJSON
import Foundation
import Testing

/// Issue #19's attacks on the real binary, short versions (the long ones: `Benchmarks/attacks.py`):
/// a crawl always ends, and a server out of descriptors backs off instead of spinning.
@Suite(.serialized) struct HostileInputTests {
    private func report(_ result: CLIResult) throws -> JSONValue {
        try JSONParser().parseValue(Array(result.stdout.utf8))
    }

    private func checks(_ report: JSONValue, endingWith suffix: String) -> [JSONValue] {
        guard case .array(let checks)? = report["checks"] else { return [] }
        return checks.filter { if case .string(let url)? = $0["url"] { url.hasSuffix(suffix) } else { false } }
    }

    private func errors(_ report: JSONValue) -> [String] {
        guard case .array(let errors)? = report["errors"] else { return [] }
        return errors.compactMap { if case .string(let message)? = $0["message"] { message } else { nil } }
    }

    @Test func aBodyThatTricklesInEndsAtTheTimeoutNotCheckedAndTheCrawlIsIncomplete() throws {
        let upstream = try PythonUpstream()
        let started = ContinuousClock.now
        // The drip sends a byte every 0.5 s for 10 s: each byte arrives well within any idle timer.
        let result = try CLI.run(["crawl", upstream.baseURL + "/hostile/index", "--timeout", "2", "--format", "json", "--max-depth", "1"])
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(8), "bounded by --timeout 2, not by the peer (\(elapsed))")
        #expect(result.status == 2, "\(result.stderr)")
        let report = try report(result)
        let messages = errors(report)
        let drip = try #require(checks(report, endingWith: "/hostile/drip").first)
        #expect(drip["outcome"] == "notChecked")
        if case .string(let reason)? = drip["reason"] {
            #expect(reason.contains("no complete answer within --timeout"))
            #expect(reason.contains("raise --timeout"))
        } else {
            Issue.record("the check says why it was not checked")
        }
        #expect(messages.contains { $0.hasPrefix("1 request got no complete answer within --timeout") })
        #expect(messages.contains { $0.contains(upstream.baseURL + "/hostile/drip") }, "names the URL")
    }

    @Test func theDeadlineEndsACrawlWhateverThePeerDoes() throws {
        let upstream = try PythonUpstream()
        let started = ContinuousClock.now
        let result = try CLI.run(["crawl", upstream.baseURL + "/hostile/index", "--timeout", "60", "--deadline", "2", "--format", "json", "--max-depth", "1"])
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(8), "\(elapsed)")
        #expect(result.status == 2, "\(result.stderr)")
        let report = try report(result)
        let messages = errors(report)
        #expect(messages.contains { $0.contains("deadline") })
        #expect(!messages.contains { $0.contains("--timeout") }, "the deadline, not --timeout, cut the request: \(messages)")
        #expect(checks(report, endingWith: "/hostile/drip").first?["outcome"] == "notChecked")
    }

    /// A `next` chain 300 deep: each path is written once, so the report grows with the links,
    /// not with the square of the depth (version 2 wrote about 1.8 MB here, the 4,000-deep chain
    /// of `Benchmarks/attacks.py` 258.6 MB); every path still reads back whole.
    @Test func aDeepChainsReportWritesEachPathOnce() throws {
        let upstream = try PythonUpstream()
        let result = try CLI.run(["crawl", upstream.baseURL + "/hostile/chain/1", "--max-depth", "400", "--format", "json", "--list-checks"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.utf8.count < 400_000, "\(result.stdout.utf8.count) bytes for 599 checks")
        let report = try report(result)
        guard case .array(let paths)? = report["paths"], case .array(let allChecks)? = report["checks"] else {
            Issue.record("no paths or checks")
            return
        }
        func steps(via: JSONValue?) -> [String] {
            var steps: [String] = []
            var current = via
            while case .number(let index)? = current, let entry = Int(index), entry < paths.count, steps.count <= paths.count {
                if case .string(let step)? = paths[entry]["step"] { steps.append(step) }
                current = paths[entry]["via"]
            }
            return steps.reversed()
        }
        let deepest = try #require(checks(report, endingWith: "/hostile/chain/300").first { $0["rel"] == "next" })
        if case .string(let step)? = deepest["step"] {
            #expect(steps(via: deepest["via"]) + [step] == Array(repeating: "next", count: 299), "root → next × 299 (chain/1 is the root)")
        } else {
            Issue.record("the deepest check has no step")
        }
        // The chain's 299 paths, and the two a folded place (`root → … → next → self`) adds.
        #expect(paths.count == 301 && allChecks.count == 599, "300 self and 299 next links: \(paths.count) paths, \(allChecks.count) checks")
        guard case .array(let counts)? = report["checkCounts"] else {
            Issue.record("no checkCounts")
            return
        }
        // Four places whole per rel (self, next), then two folded ones: a deep chain has a few.
        #expect(counts.count == 10, "\(counts)")
    }

    @Test func aServerOutOfDescriptorsBacksOffKeepsServingAndAcceptsAgain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-fds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"stubs": [{"request": {"path": "/a"}, "response": {"status": 200, "bodyText": "A"}}]}"#.utf8)
            .write(to: folder.appendingPathComponent("a.json"))
        // 64 descriptors: a few for the process itself, the rest for connections.
        let server = try ServeCommandTests.ServeProcess(
            ["-c", "ulimit -n 64 && exec \"$0\" serve \"$1\" --port 0 --threads 1", CLI.executable.path, folder.path], shell: true)
        try server.waitUntilListening()
        var sockets: [LoopbackSocket] = []
        defer { sockets.removeAll() }
        for _ in 0..<80 { sockets.append(try LoopbackSocket(port: server.port)) }
        Thread.sleep(forTimeInterval: 1)
        let before = try Self.cpuSeconds(server.process.processIdentifier)
        Thread.sleep(forTimeInterval: 2)
        let spent = try Self.cpuSeconds(server.process.processIdentifier) - before
        #expect(spent < 0.3, "no busy loop on the queued connections (\(spent) s of CPU in 2 s)")
        #expect(server.errors.components(separatedBy: "cannot accept connections").count == 2, "said once: \(server.errors)")
        // An accepted connection is still served.
        let served = sockets[0]
        try served.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try served.readUntil("\r\n\r\nA").hasPrefix("HTTP/1.1 200"))
        // Descriptors free up: accepting resumes.
        sockets.removeSubrange(1..<40)
        let later = try LoopbackSocket(port: server.port)
        try later.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try later.readUntil("\r\n\r\nA").hasPrefix("HTTP/1.1 200"))
        #expect(server.errors.contains("accepting connections again"))
    }

    static func cpuSeconds(_ pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// A blocking loopback connection that closes when released.
final class LoopbackSocket {
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServeCommandTests.ServeTestError(description: "socket failed") }
        var time = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw ServeCommandTests.ServeTestError(description: "connect failed: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw ServeCommandTests.ServeTestError(description: "send failed")
        }
    }

    /// Reads until `marker` has arrived (or the 5 s timeout passes).
    func readUntil(_ marker: String) throws -> String {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
