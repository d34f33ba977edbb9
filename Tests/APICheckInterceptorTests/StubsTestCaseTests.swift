import APICheckTesting
import Foundation
import Logging
import Synchronization
import Testing
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The XCTest base class, as an app's test target uses it: stubs beside the test file.
final class StubsTestCaseTests: StubsTestCase {
    override var stubsSetup: StubsSetup { StubsSetup("Fixtures/stubs") }

    func testEveryTestIsAnsweredFromTheStubsBesideTheFile() async throws {
        let (data, response) = try await stubs.session.data(from: URL(string: "http://localhost/greetings/grace")!)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "hello")
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        var statuses: [Int] = []
        for _ in 0..<4 {
            statuses.append((try await stubs.session.data(from: URL(string: "http://localhost/jobs/1")!).1 as? HTTPURLResponse)?.statusCode ?? 0)
        }
        XCTAssertEqual(statuses, [202, 202, 200, 200])
        stubs.expectRequested("GET", "/greetings/{name}", .exactly(1))
        stubs.expectRequestedInOrder([(method: "GET", path: "/greetings/grace"), (method: "GET", path: "/jobs/1")])
    }

    func testCodeStubsAndABadRouteThrownWithItsLocation() async throws {
        try stubs.stub(.post("/orders")) { _ in .status(201) }
        var post = URLRequest(url: URL(string: "http://localhost/orders")!)
        post.httpMethod = "POST"
        let (_, response) = try await stubs.session.data(for: post)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 201)
        let line = #line + 1
        XCTAssertThrowsError(try stubs.stub(.get("orders")) { _ in .status(200) }) { error in
            XCTAssertEqual((error as? StubRouteError)?.location.line, line)
        }
    }
}

/// A class that expects misses says so, in the same setup value.
final class StubsTestCaseAllowingMissesTests: StubsTestCase {
    override var stubsSetup: StubsSetup { StubsSetup("Fixtures/stubs", unmatched: .allow) }

    func testAMissIsTheTestsOwnBusiness() async throws {
        do {
            _ = try await stubs.session.data(from: URL(string: "http://localhost/nowhere")!)
            XCTFail("expected the miss to fail the request")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .resourceUnavailable)
        }
        XCTAssertEqual(stubs.journal.unmatched.count, 1)
    }
}

/// `withStubs` inside an XCTest method: the same scope, recording included.
final class WithStubsInXCTestTests: XCTestCase {
    func testRecordsWhatNoStubAnswers() async throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment[RecordMode.environmentVariable] != nil, "APICHECK_RECORD would choose the mode")
        let server = try LoopbackServer(body: "from the network")
        let folder = try TemporaryFolder()
        let quiet = Logger(label: "apicheck.test", factory: { _ in SwiftLogNoOpLogHandler() })
        try await withStubs(folder.path, record: StubRecording(.recordMissing, logger: quiet)) { stubs in
            let (data, _) = try await stubs.session.data(from: URL(string: "\(server.origin)/live")!)
            XCTAssertEqual(String(decoding: data, as: UTF8.self), "from the network")
            XCTAssertEqual(stubs.recordingSummary?.written, ["live.json"])
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("live.json").path))
    }
}

#if !canImport(Darwin)
// How the base class reports a miss, asserted by running XCTest cases by hand (swift-corelibs-
// xctest's `init(name:testClosure:)`) and keeping every failure their run records. Their methods
// do not start with `test`, so XCTest does not run them itself.

/// A run that keeps the failures recorded against it.
final class KeepingRun: XCTestCaseRun {
    nonisolated(unsafe) static var kept: [(description: String, file: String?, line: Int)] = []

    override func recordFailure(withDescription description: String, inFile filePath: String?, atLine lineNumber: Int, expected: Bool) {
        Self.kept.append((description, filePath, lineNumber))
    }
}

final class MissingStubProbe: StubsTestCase {
    static let setupLine = #line + 1
    override var stubsSetup: StubsSetup { StubsSetup("Fixtures/stubs") }
    override var testRunClass: AnyClass? { KeepingRun.self }

    func swallowsAMiss() {
        _ = try? Self.get(stubs.session, "http://localhost/nowhere")
    }

    func throwsAMiss() throws {
        _ = try Self.get(stubs.session, "http://localhost/nowhere")
    }

    func throwsAnotherError() throws {
        struct Unrelated: Error {}
        throw Unrelated()
    }

    /// A blocking request: these probes run as plain (synchronous) XCTest methods.
    static func get(_ session: URLSession, _ url: String) throws -> Data {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Data, any Error> = .failure(URLError(.unknown))
        session.dataTask(with: URL(string: url)!) { data, _, error in
            result = error.map { .failure($0) } ?? .success(data ?? Data())
            done.signal()
        }.resume()
        done.wait()
        return try result.get()
    }

    static func run(_ method: String, _ body: @escaping (MissingStubProbe) throws -> Void) -> [(description: String, file: String?, line: Int)] {
        KeepingRun.kept = []
        MissingStubProbe(name: method) { try body($0 as! MissingStubProbe) }.run()
        return KeepingRun.kept
    }
}

@Suite(.serialized) struct StubsTestCaseReportingTests {
    private let probeFile = URL(fileURLWithPath: #filePath).path

    @Test func aSwallowedMissFailsTheTestOnceAtTheSetupLine() {
        let failures = MissingStubProbe.run("swallowsAMiss") { $0.swallowsAMiss() }
        #expect(failures.count == 1, "\(failures)")
        #expect(failures.first?.line == MissingStubProbe.setupLine)
        #expect(failures.first?.file == probeFile)
        #expect(failures.first?.description.contains("No stub matches GET http://localhost/nowhere. Nearest stubs:") == true)
    }

    @Test func aThrownMissIsReportedOnceNotAgainAsAThrownError() {
        let failures = MissingStubProbe.run("throwsAMiss") { try $0.throwsAMiss() }
        #expect(failures.count == 1, "\(failures)")
        #expect(failures.first?.line == MissingStubProbe.setupLine)
        #expect(failures.first?.description.hasPrefix("No stub matches GET http://localhost/nowhere") == true, "\(failures)")
    }

    @Test func anotherThrownErrorIsLeftAsXCTestReportsIt() {
        let failures = MissingStubProbe.run("throwsAnotherError") { try $0.throwsAnotherError() }
        #expect(failures.count == 1)
        #expect(failures.first?.description.contains("threw error") == true)
    }
}
#endif
