import APICheckJSON
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `apicheck serve` end to end: the built binary on 127.0.0.1, real sockets, real signals.
@Suite struct ServeCommandTests {
    /// A running `apicheck serve`, its output in files (a pipe nobody reads could block it).
    final class ServeProcess {
        let process = Process()
        let stdout: URL
        let stderr: URL
        private(set) var baseURL = ""
        var port: Int { Int(baseURL.split(separator: ":").last ?? "") ?? 0 }

        /// `shell`: `arguments` go to `/bin/sh` instead (to set a limit with `ulimit` first).
        init(_ arguments: [String], command: String = "serve", shell: Bool = false) throws {
            let folder = FileManager.default.temporaryDirectory
            stdout = folder.appendingPathComponent("apicheck-serve-\(UUID().uuidString).out")
            stderr = folder.appendingPathComponent("apicheck-serve-\(UUID().uuidString).err")
            FileManager.default.createFile(atPath: stdout.path, contents: nil)
            FileManager.default.createFile(atPath: stderr.path, contents: nil)
            process.executableURL = shell ? URL(fileURLWithPath: "/bin/sh") : CLI.executable
            process.arguments = shell ? arguments : [command] + arguments
            process.currentDirectoryURL = CLI.repository
            var environment = ProcessInfo.processInfo.environment
            environment["NO_COLOR"] = "1"
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: stdout)
            process.standardError = try FileHandle(forWritingTo: stderr)
            try process.run()
        }

        deinit {
            if process.isRunning { process.terminate() }
            process.finish(within: .seconds(10))
            try? FileManager.default.removeItem(at: stdout)
            try? FileManager.default.removeItem(at: stderr)
        }

        var output: String { (try? String(contentsOf: stdout, encoding: .utf8)) ?? "" }
        var errors: String { (try? String(contentsOf: stderr, encoding: .utf8)) ?? "" }

        /// Waits for the first line and reads the URL from it.
        func waitUntilListening(timeout: Duration = .seconds(20)) throws {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if let line = output.split(separator: "\n").first, let range = line.range(of: "https://") ?? line.range(of: "http://") {
                    baseURL = String(line[range.lowerBound...].prefix { !$0.isWhitespace })
                    return
                }
                if !process.isRunning { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            throw ServeTestError(description: "no URL on the first line; stdout: \(output) stderr: \(errors)")
        }

        /// Sends `signal` and waits for the exit status.
        func stop(_ signal: Int32 = SIGTERM, timeout: Duration = .seconds(20)) -> Int32? {
            kill(process.processIdentifier, signal)
            return process.finish(within: timeout) ? process.terminationStatus : nil
        }

        /// Resident memory in KiB, from /proc.
        var residentKiB: Int? {
            guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
            else { return nil }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
    }

    struct ServeTestError: Error, CustomStringConvertible {
        var description: String
    }

    private func get(_ url: String) async throws -> (Int, String) {
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: try #require(URL(string: url)))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func servesAcmeFlixOnAFreePortAndStopsGracefullyOnSIGTERM() async throws {
        let server = try ServeProcess(["stubs/acmeflix", "--port", "0", "--rewrite-origin", "http://localhost:3000"])
        try server.waitUntilListening()
        #expect(server.baseURL.hasPrefix("http://127.0.0.1:"))
        #expect(server.port > 0)
        #expect(server.output.hasPrefix("Listening on \(server.baseURL) (48 stubs)"))

        let (status, root) = try await get(server.baseURL + "/")
        #expect(status == 200)
        #expect(root.contains("\"href\":\"\(server.baseURL)/library\""))
        let (missing, problem) = try await get(server.baseURL + "/nope")
        #expect(missing == 404)
        #expect(problem.contains("No stub matches GET /nope"))
        let (healthStatus, health) = try await get(server.baseURL + "/__apicheck/health")
        #expect(healthStatus == 200)
        #expect(try JSONParser().parseValue(Array(health.utf8))["stubs"] == 48)

        #expect(server.stop(SIGTERM) == 0)
        #expect(server.errors.contains("No stub matches GET /nope"), "unmatched requests are logged: \(server.errors)")
        #expect(server.errors.contains("stopped"))
    }

    @Test func sigintStopsGracefullyToo() throws {
        let server = try ServeProcess(["stubs/acmeflix", "--port", "0"])
        try server.waitUntilListening()
        #expect(server.stop(SIGINT) == 0)
    }

    @Test func aTakenPortMissingFoldersAndNoStubsExitTwo() throws {
        let first = try ServeProcess(["stubs/acmeflix", "--port", "0"])
        try first.waitUntilListening()
        let taken = try CLI.run(["serve", "stubs/acmeflix", "--port", String(first.port)])
        #expect(taken.status == 2)
        #expect(taken.stderr.contains("already in use"), "\(taken.stderr)")
        #expect(first.stop() == 0)

        let missing = try CLI.run(["serve", "no/such/folder", "--port", "0"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("'no/such/folder': no such file or folder."))

        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try CLI.run(["serve", empty.path, "--port", "0"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("no stubs loaded"))

        for bad in [["--scenario", "nonsense"], ["--rewrite-origin", "localhost"], ["--max-body", "lots"], ["--port", "70000"]] {
            let result = try CLI.run(["serve", "stubs/acmeflix"] + bad)
            #expect(result.status == 2, "\(bad): \(result.stderr)")
        }
    }

    @Test func helpHasExamples() throws {
        let help = try CLI.run(["serve", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Examples:"))
        #expect(help.stdout.contains("apicheck serve stubs/acmeflix --port 3000"))
        #expect(help.stdout.contains("--rewrite-origin"))
    }

    @Test func watchReloadsAndReportsABrokenFileWithItsLocation() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hello.json")
        try Data(#"{"request": {"path": "/hello"}, "response": {"status": 200, "bodyText": "one"}}"#.utf8).write(to: file)
        let server = try ServeProcess([folder.path, "--port", "0", "--watch"])
        try server.waitUntilListening()
        #expect(try await get(server.baseURL + "/hello").1 == "one")

        try Data(#"{"request": {"path": "/hello"}, "response": {"status": 200, "bodyText": "two"}}"#.utf8).write(to: file)
        var body = ""
        for _ in 0..<100 where body != "two" {
            body = try await get(server.baseURL + "/hello").1
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(body == "two")

        try Data("{\"request\": {\"path\": \"/hello\"},\n \"response\": {\"status\": true}}".utf8).write(to: file)
        for _ in 0..<100 where !server.errors.contains("\(file.path):2:") {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(server.errors.contains("\(file.path):2:"), "\(server.errors)")
        #expect(server.errors.contains(": error: "))
        #expect(try await get(server.baseURL + "/hello").1 == "two")
        #expect(server.stop() == 0)
    }

    /// 100,000 requests one after another on one keep-alive connection (in pipelined batches of
    /// 50 to keep the test short): every answer right, the connection alive, memory flat once the
    /// journal is full (10,000 entries).
    @Test func oneHundredThousandRequestsOnOneConnectionWithoutGrowth() throws {
        let server = try ServeProcess(["stubs/acmeflix", "--port", "0", "--log-level", "warning"])
        try server.waitUntilListening()
        let connection = try LoadConnection(port: server.port)
        let request = Array("GET /movies/1msRby HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let batch = 50
        var baseline: Int?
        var checked = 0
        for round in 0..<(100_000 / batch) {
            try connection.send(Array([[UInt8]](repeating: request, count: batch).joined()))
            for _ in 0..<batch {
                guard try connection.readResponseStatus() == 200 else {
                    Issue.record("request \(checked) was not answered 200")
                    return
                }
                checked += 1
            }
            if round == 20_000 / batch { baseline = server.residentKiB }
        }
        let final = server.residentKiB
        #expect(checked == 100_000)
        if let baseline, let final {
            #expect(final - baseline < 16 * 1024, "RSS grew from \(baseline) KiB to \(final) KiB")
        }
        #expect(server.process.isRunning)
        #expect(server.stop() == 0)
    }
}

/// A minimal blocking HTTP/1.1 client for the load test: reads `Content-Length` bodies.
final class LoadConnection {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    init(port: Int) throws {
        descriptor = socket(AF_INET, SocketConstants.stream, 0)
        SocketConstants.disableSIGPIPE(descriptor)
        var time = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw ServeCommandTests.ServeTestError(description: "connect failed") }
    }

    deinit { close(descriptor) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, SocketConstants.noSignal) }
            guard count > 0 else { throw ServeCommandTests.ServeTestError(description: "send failed") }
            sent += count
        }
    }

    private func fill() throws {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw ServeCommandTests.ServeTestError(description: "connection ended") }
        buffer += chunk[0..<count]
    }

    /// The status of the next response; its body is skipped.
    func readResponseStatus() throws -> Int {
        while true {
            if let (status, length) = parseResponse() {
                start += length
                return status
            }
            try fill()
        }
    }

    /// The status and total length of the response at `start`, once it is complete in the buffer.
    private func parseResponse() -> (Int, Int)? {
        var index = start
        var headEnd: Int?
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                headEnd = index
                break
            }
            index += 1
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[start..<headEnd], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        let total = headEnd + 4 + length - start
        return buffer.count - start >= total ? (status, total) : nil
    }
}

/// Socket constants that differ between Glibc and Darwin.
enum SocketConstants {
    #if canImport(Darwin)
    static let stream = SOCK_STREAM
    static let noSignal: Int32 = 0
    /// Darwin has no MSG_NOSIGNAL; the socket itself is told not to raise SIGPIPE.
    static func disableSIGPIPE(_ descriptor: Int32) {
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    }
    #else
    static let stream = Int32(SOCK_STREAM.rawValue)
    static let noSignal = Int32(MSG_NOSIGNAL)
    static func disableSIGPIPE(_ descriptor: Int32) {}
    #endif
}
