import APICheckInterceptor
import APICheckTesting
import Foundation
import Logging
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The XCTest helpers, used as an app's test target would: stubs from the test bundle.
final class XCTestHelpersTests: XCTestCase {
    private var stubsFolder: String {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("stubs").path
    }

    func testStubbedSessionServesBundleStubsAndAssertsOnTheJournal() async throws {
        let (session, stubs) = try stubbedSession(loading: [stubsFolder])
        let (data, response) = try await session.data(from: URL(string: "http://localhost/greetings/ada")!)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "hello")
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        var statuses: [Int] = []
        for _ in 0..<4 {
            statuses.append((try await session.data(from: URL(string: "http://localhost/jobs/1")!).1 as? HTTPURLResponse)?.statusCode ?? 0)
        }
        XCTAssertEqual(statuses, [202, 202, 200, 200])
        XCTAssertRequested(stubs, "GET", "/greetings/{name}", .exactly(1))
        XCTAssertRequested(stubs, "GET", "/jobs/1", .exactly(4))
        XCTAssertRequestedInOrder(stubs, [(method: "GET", path: "/greetings/ada"), (method: "GET", path: "/jobs/1")])
        XCTAssertNoUnmatchedRequests(stubs)
    }

    func testStubbedSessionRecordsWhatNoStubAnswers() async throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment[RecordMode.environmentVariable] != nil, "APICHECK_RECORD would choose the mode")
        let server = try LoopbackServer(body: "from the network")
        let folder = try TemporaryFolder()
        let quiet = Logger(label: "apicheck.test", factory: { _ in SwiftLogNoOpLogHandler() })
        let (session, stubs) = try stubbedSession(loading: [folder.path], record: StubRecording(.recordMissing, logger: quiet))
        let (data, _) = try await session.data(from: URL(string: "\(server.origin)/live")!)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "from the network")
        XCTAssertEqual(stubs.recordingSummary?.written, ["live.json"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("live.json").path))
    }

    func testABrokenStubFileFailsTheTestThatLoadsIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-xctest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<http-response statusCode=\"nope\"><annotation uri-path=\"/\"/></http-response>".utf8).write(to: folder.appendingPathComponent("bad.xml"))
        XCTAssertThrowsError(try stubbedSession(loading: [folder.path])) { error in
            XCTAssertTrue("\(error)".contains("bad.xml:1:16: error: status \"nope\""), "\(error)")
        }
    }
}

/// The base class: every test answered from the same stub files, misses fail at teardown.
final class StubbedTestCaseTests: StubbedTestCase {
    override var stubPaths: [String] { [stubFolder("Fixtures/stubs")] }

    func testEveryTestGetsAnsweredFromTheStubs() async throws {
        let (data, _) = try await session.data(from: URL(string: "http://localhost/greetings/grace")!)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "hello")
        XCTAssertRequested(interceptor, "GET", "/greetings/{name}", .exactly(1))
    }
}

/// A class that expects misses says so.
final class StubbedTestCaseAllowingMissesTests: StubbedTestCase {
    override var stubPaths: [String] { [stubFolder("Fixtures/stubs")] }
    override var unmatchedRequests: UnmatchedRequests { .allow }

    func testAMissIsTheTestsOwnBusiness() async throws {
        do {
            _ = try await session.data(from: URL(string: "http://localhost/nowhere")!)
            XCTFail("expected the miss to fail the request")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .resourceUnavailable)
        }
        XCTAssertEqual(interceptor.journal.unmatched.count, 1)
    }
}
