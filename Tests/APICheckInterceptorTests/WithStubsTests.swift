import APICheckTesting
import Foundation
import Logging
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let greeting = URL(string: "http://localhost/greetings/ada")!
let missing = URL(string: "http://localhost/nowhere")!

/// The issues a `withKnownIssue` block saw, to assert how many there were and where.
final class IssueLog: Sendable {
    private let issues = Mutex<[Issue]>([])

    /// Keeps `issue`; always a match, so every issue is counted here and asserted on after.
    func keep(_ issue: Issue) -> Bool {
        issues.withLock { $0.append(issue) }
        return true
    }

    var all: [Issue] { issues.withLock { $0 } }
    var lines: [Int] { all.compactMap { $0.sourceLocation?.line } }
    var texts: [String] { all.map { $0.comments.map(\.rawValue).joined(separator: "\n") } }
}

/// The one scoped entry: files beside the test, code stubs, journal and expectations, and what
/// happens to misses, bad routes and sessions outside the scope, through real URLSessions.
@Suite struct WithStubsTests {
    @Test func answersFromFilesBesideTheTestAndFromCode() async throws {
        try await withStubs("Fixtures/stubs") { stubs in
            let (data, _) = try await stubs.session.data(from: greeting)
            #expect(String(decoding: data, as: UTF8.self) == "hello")
            try stubs.stub(.get("/greetings/grace")) { _ in .text("hi, Grace") }
            #expect(try await stubs.session.data(from: URL(string: "http://localhost/greetings/grace")!).0 == Data("hi, Grace".utf8))
            #expect(stubs.journal.count == 2)
            #expect(Stubs.current === stubs, "the body sees its own scope as current")
            stubs.expectRequested("GET", "/greetings/{name}", .exactly(2))
            stubs.expectRequestedInOrder([(method: "GET", path: "/greetings/ada"), (method: "GET", path: "/greetings/grace")])
        }
    }

    @Test func aFailedExpectationIsAnIssueAtItsLine() async throws {
        let issues = IssueLog()
        let line = #line + 3
        try await withKnownIssue {
            try await withStubs("Fixtures/stubs") { stubs in
                stubs.expectRequested("GET", "/greetings/{name}", .exactly(1))
            }
        } matching: { issues.keep($0) }
        #expect(issues.lines == [line])
        #expect(issues.texts.first?.contains("requested 0 times") == true, "\(issues.texts)")
    }

    @Test func aSwallowedMissIsReportedOnceAtTheScopeLineWithItsURL() async throws {
        let issues = IssueLog()
        let scopeLine = #line + 2
        try await withKnownIssue {
            try await withStubs("Fixtures/stubs") { stubs in
                _ = try? await stubs.session.data(from: missing)  // a client that wraps and drops the error
            }
        } matching: { issues.keep($0) }
        #expect(issues.lines == [scopeLine])
        #expect(issues.texts.first?.hasPrefix("No stub matches GET http://localhost/nowhere. Nearest stubs:") == true, "\(issues.texts)")
    }

    @Test func aMissTheBodyThrowsIsReportedOnceNotTwice() async throws {
        let issues = IssueLog()
        let scopeLine = #line + 2
        try await withKnownIssue {
            try await withStubs("Fixtures/stubs") { stubs in
                _ = try await stubs.session.data(from: missing)  // the URLError propagates
            }
        } matching: { issues.keep($0) }
        #expect(issues.lines == [scopeLine], "one issue, not the report again as a caught error")
        #expect(issues.texts.first?.contains("No stub matches GET http://localhost/nowhere") == true, "\(issues.texts)")
    }

    @Test func eachMissIsReportedOnceWhenOneOfThemIsThrown() async throws {
        let issues = IssueLog()
        try await withKnownIssue {
            try await withStubs("Fixtures/stubs") { stubs in
                _ = try? await stubs.session.data(from: URL(string: "http://localhost/first")!)
                _ = try await stubs.session.data(from: URL(string: "http://localhost/second")!)
            }
        } matching: { issues.keep($0) }
        #expect(issues.all.count == 2)
        #expect(issues.texts.filter { $0.contains("GET http://localhost/first") }.count == 1)
        #expect(issues.texts.filter { $0.contains("GET http://localhost/second") }.count == 1)
    }

    @Test func aMissCanBeAllowed() async throws {
        try await withStubs("Fixtures/stubs", unmatched: .allow) { stubs in
            let error = await #expect(throws: URLError.self) { try await stubs.session.data(from: missing) }
            #expect(error?.code == .resourceUnavailable)
            #expect(error?.nearMissReport?.request.path == "/nowhere")
        }
    }

    @Test func theURLErrorOfAMissPrintsItsReportOnce() async throws {
        try await withStubs("Fixtures/stubs", unmatched: .allow) { stubs in
            let error = await #expect(throws: URLError.self) { try await stubs.session.data(from: missing) }
            let printed = "\(try #require(error))"
            #expect(printed.components(separatedBy: "No stub matches GET /nowhere").count == 2, "\(printed)")
        }
    }

    @Test func aBadRouteIsAThrownErrorWithItsLocation() async throws {
        try await withStubs { stubs in
            let line = #line + 1
            let error = #expect(throws: StubRouteError.self) { try stubs.stub(.get("items")) { _ in .status(200) } }
            #expect(error?.location.line == line)
            #expect(error?.location.path.hasSuffix("APICheckInterceptorTests/WithStubsTests.swift") == true)
            #expect(error?.description.contains(":\(line):1: error: stub(GET items): 'items' is not a stub path pattern") == true, "\(String(describing: error))")
            // The scope goes on: the other stubs still answer.
            try stubs.stub(.get("/items")) { _ in .text("items") }
            #expect(try await stubs.session.data(from: URL(string: "http://localhost/items")!).0 == Data("items".utf8))
        }
    }

    @Test func outsideAnyScopeTheSessionRefusesEveryRequest() async throws {
        let server = try LoopbackServer(body: "from the network")
        // A detached task inherits no scope and no test: nothing records an issue here.
        let outcome = await Task.detached { () -> String in
            do {
                _ = try await Stubs.current.session.data(from: URL(string: "\(server.origin)/leak")!)
                return "answered"
            } catch let error as URLError {
                return "\(error.code.rawValue): \(error.localizedDescription)"
            } catch {
                return "\(error)"
            }
        }.value
        #expect(outcome.hasPrefix("\(URLError.Code.unsupportedURL.rawValue): no stubs here"), "\(outcome)")
        #expect(outcome.contains("refuses every request"))
        #expect(server.requests.isEmpty, "nothing reached the network")
    }

    @Test func readingStubsCurrentInATestWithoutAScopeIsAnIssueAtTheTest() throws {
        let issues = IssueLog()
        withKnownIssue {
            _ = Stubs.current.session
        } matching: { issues.keep($0) }
        #expect(issues.all.count == 1)
        #expect(issues.all.first?.sourceLocation == Test.current?.sourceLocation)
        #expect(issues.texts.first?.contains("no .stubs(…) trait") == true)
    }

    @Test func aSessionKeptAfterItsScopeRefusesInsteadOfCrashing() async throws {
        let kept = try await withStubs("Fixtures/stubs") { $0.session }
        let error = await #expect(throws: URLError.self) { try await kept.data(from: greeting) }
        #expect(error?.localizedDescription.contains("has ended: its sessions refuse every request") == true)
    }

    @Test func outsideATestFrameworkTheScopeThrowsWhatItFound() async throws {
        let folder = stubsFolder
        let scopeLine = #line + 3
        let outcome = await Task.detached { () -> String in
            do {
                try await withStubs(folder) { stubs in
                    _ = try? await stubs.session.data(from: missing)
                    stubs.expectRequested("DELETE", "/greetings/{name}")
                }
                return "returned"
            } catch let error as StubsScopeError {
                #expect(error.reports.map(\.request.path) == ["/nowhere"])
                return error.description
            } catch {
                return "\(error)"
            }
        }.value
        #expect(outcome.hasPrefix("APICheckInterceptorTests/WithStubsTests.swift:\(scopeLine):"), "\(outcome)")
        #expect(outcome.contains("1 request matched no stub:\nNo stub matches GET http://localhost/nowhere"))
        #expect(outcome.contains("requested 0 times"), "the failed expectation is thrown too")
    }

    private var stubsFolder: String { URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/stubs").path }

    @Test func aBrokenStubFileFailsBeforeTheBodyRuns() async throws {
        let folder = try TemporaryFolder()
        try folder.write("bad.xml", #"<http-response statusCode="nope"><annotation uri-path="/"/></http-response>"#)
        let error = await #expect(throws: StubLoadingError.self) {
            try await withStubs(folder.path) { _ in Issue.record("the body must not run") }
        }
        #expect(error?.description.contains("bad.xml:1:16: error: status \"nope\"") == true, "\(String(describing: error))")
    }

    @Test func stubFileWarningsCanFailTheTest() async throws {
        let folder = try TemporaryFolder()
        try folder.write("a.xml", #"<http-response statusCode="200"><annotation uri-path="/a"/><headers><header name="Content-Length" value="99"/></headers><body>short</body></http-response>"#)
        let issues = IssueLog()
        try await withKnownIssue {
            try await withStubs(folder.path, warnings: .fail) { _ in }
        } matching: { issues.keep($0) }
        #expect(issues.texts.count == 1 && issues.texts[0].contains("a.xml:1:") && issues.texts[0].contains("warning: Content-Length 99"))
        // Ignored on request.
        try await withStubs(folder.path, warnings: .ignore) { _ in }
    }
}
