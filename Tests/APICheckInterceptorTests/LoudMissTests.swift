import APICheckTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private let greeting = URL(string: "http://localhost/greetings/ada")!
private let missing = URL(string: "http://localhost/nowhere")!

/// A request no stub answered fails the test, whatever the client did with the error.
@Suite struct LoudMissTests {
    @Test(.stubs("Fixtures/stubs")) func theTraitAnswersFromFilesBesideTheTest() async throws {
        let (data, _) = try await StubbedTest.session.data(from: greeting)
        #expect(String(decoding: data, as: UTF8.self) == "hello")
        let interceptor = try #require(StubbedTest.current?.interceptor)
        expectRequested(interceptor, "GET", "/greetings/{name}", .exactly(1))
    }

    @Test func aMissTheClientSwallowedFailsTheScopedHelper() async throws {
        try await withKnownIssue {
            try await withStubbedSession(loading: [stubFolder("Fixtures/stubs")]) { session, _ in
                _ = try? await session.data(from: missing)  // a client that wraps and drops the error
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("No stub matches GET /nowhere. Nearest stubs:") }
        }
    }

    @Test func aMissIsReportedEvenWhenTheBodyThrew() async throws {
        struct ClientGaveUp: Error {}
        try await withKnownIssue {
            do {
                try await withStubbedSession(loading: [stubFolder("Fixtures/stubs")]) { session, _ in
                    _ = try? await session.data(from: missing)
                    throw ClientGaveUp()
                }
            } catch is ClientGaveUp {
                // The body's own error still reaches the test; the miss is recorded besides.
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("No stub matches GET /nowhere") }
        }
    }

    @Test func aMissCanBeAllowed() async throws {
        try await withStubbedSession(loading: [stubFolder("Fixtures/stubs")], unmatched: .allow) { session, _ in
            _ = await #expect(throws: URLError.self) { try await session.data(from: missing) }
        }
    }

    @Test func theTraitReportsAMissWhenTheTestEnds() async throws {
        let trait: StubsTrait = .stubs("Fixtures/stubs")
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: nil) {
                _ = try? await StubbedTest.session.data(from: missing)
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("No stub matches GET /nowhere") }
        }
    }

    @Test func outsideSwiftTestingTheHelperThrowsTheReports() async throws {
        let folder = stubFolder("Fixtures/stubs")
        // A detached task does not inherit `Test.current`: like a test under another framework.
        let outcome = await Task.detached {
            do {
                try await withStubbedSession(loading: [folder]) { session, _ in _ = try? await session.data(from: missing) }
                return "returned"
            } catch let error as UnmatchedRequestsError {
                return error.description
            } catch {
                return "\(error)"
            }
        }.value
        #expect(outcome.hasPrefix("1 request matched no stub:\n"), "\(outcome)")
        #expect(outcome.contains("No stub matches GET /nowhere"))
    }

    @Test func stubFileWarningsCanFailTheTest() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-warnings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"<http-response statusCode="200"><annotation uri-path="/a"/><headers><header name="Content-Length" value="99"/></headers><body>short</body></http-response>"#.utf8)
            .write(to: folder.appendingPathComponent("a.xml"))
        try await withKnownIssue {
            try await withStubbedSession(loading: [folder.path], warnings: .fail) { _, _ in }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("a.xml:1:") && $0.rawValue.contains("warning: Content-Length 99") }
        }
        // Ignored on request; recorded (as a warning, which does not fail) by default.
        try await withStubbedSession(loading: [folder.path], warnings: .ignore) { _, _ in }
    }

    @Test func stubFolderIsRelativeToTheTestFile() {
        #expect(stubFolder("Fixtures/stubs").hasSuffix("Tests/APICheckInterceptorTests/Fixtures/stubs"))
        #expect(stubFolder("/abs/stubs") == "/abs/stubs")
        #expect(stubFolder("../../stubs").hasSuffix("/stubs") && !stubFolder("../../stubs").contains(".."))
    }
}
