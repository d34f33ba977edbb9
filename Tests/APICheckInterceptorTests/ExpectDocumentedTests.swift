#if OpenAPI
import APICheckTesting
import Foundation
import Testing
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `expectDocumented(by:)`: every request the client sent is an operation of an OpenAPI document
/// (the package's `OpenAPI` trait, on in this package's own tests through `CLI`).
@Suite struct ExpectDocumentedTests {
    @Test func documentedRequestsPass() async throws {
        try await withStubs("Fixtures/stubs") { stubs in
            _ = try await stubs.session.data(from: greeting)
            _ = try await stubs.session.data(from: URL(string: "http://localhost/greetings/grace%20hopper")!)
            stubs.expectDocumented(by: "Fixtures/openapi/greetings.yaml")
        }
    }

    @Test func eachUndocumentedMethodAndPathIsOneIssueAtTheExpectation() async throws {
        let issues = IssueLog()
        let line = #line + 9
        try await withKnownIssue {
            try await withStubs("Fixtures/stubs") { stubs in
                try stubs.stub(.post("/greetings/{name}")) { _ in .text("sent") }
                var post = URLRequest(url: greeting)
                post.httpMethod = "POST"
                _ = try await stubs.session.data(for: post)
                _ = try await stubs.session.data(from: URL(string: "http://localhost/jobs/1")!)
                _ = try await stubs.session.data(from: URL(string: "http://localhost/jobs/1")!)
                stubs.expectDocumented(by: "Fixtures/openapi/greetings.yaml")
            }
        } matching: { issues.keep($0) }
        #expect(issues.lines == [line, line])
        #expect(issues.texts.count == 2)
        #expect(issues.texts.first?.contains("POST /greetings/ada is not documented by Fixtures/openapi/greetings.yaml: it lists only GET for /greetings/{name}") == true, "\(issues.texts)")
        #expect(issues.texts.last?.contains("GET /jobs/1 is not an operation of Fixtures/openapi/greetings.yaml: no path template matches it (requested 2 times)") == true, "\(issues.texts)")
    }

    @Test func aDocumentThatDoesNotLoadIsOneIssueNamingItsPlace() async throws {
        let folder = try TemporaryFolder()
        let document = try folder.write("broken.yaml", "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a: [\n")
        let issues = IssueLog()
        try await withKnownIssue {
            try await withStubs("Fixtures/stubs") { stubs in
                stubs.expectDocumented(by: document)
            }
        } matching: { issues.keep($0) }
        #expect(issues.texts.count == 1)
        #expect(issues.texts.first?.contains("the OpenAPI document does not load: \(document):") == true, "\(issues.texts)")
    }

    @Test func outsideATestFrameworkTheFailuresAreThrownWhenTheScopeEnds() async throws {
        let error = await #expect(throws: StubsScopeError.self) {
            try await Task.detached {
                try await withStubs("Fixtures/stubs") { stubs in
                    _ = try await stubs.session.data(from: URL(string: "http://localhost/jobs/1")!)
                    stubs.expectDocumented(by: "Fixtures/openapi/greetings.yaml")
                }
            }.value
        }
        #expect(error?.failures.count == 1)
        #expect(error?.failures.first?.contains("GET /jobs/1 is not an operation") == true, "\(String(describing: error?.failures))")
    }
}

/// The same expectation in a `StubsTestCase`: documented requests record no failure.
final class ExpectDocumentedXCTestTests: StubsTestCase {
    override var stubsSetup: StubsSetup { StubsSetup("Fixtures/stubs") }

    func testDocumentedRequestsPass() async throws {
        _ = try await stubs.session.data(from: greeting)
        stubs.expectDocumented(by: "Fixtures/openapi/greetings.yaml")
    }
}
#endif

#if OpenAPI
/// An OpenAPI document named among a scope's paths answers as `apicheck serve --openapi` does.
@Suite struct DocumentStubSourceTests {
    @Test func aDocumentAnswersWithItsExampleAndPreferPicksAnother() async throws {
        try await withStubs("Fixtures/stubs", "Fixtures/openapi/movies.yaml") { stubs in
            let url = URL(string: "http://localhost/movies/42")!
            let (body, response) = try await stubs.session.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: body, as: UTF8.self).replacingOccurrences(of: " ", with: "").contains(#""title":"Dune""#), "\(String(decoding: body, as: UTF8.self))")
            var missing = URLRequest(url: url)
            missing.setValue("code=404", forHTTPHeaderField: "Prefer")
            let (_, notFound) = try await stubs.session.data(for: missing)
            #expect((notFound as? HTTPURLResponse)?.statusCode == 404)
            #expect((notFound as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/problem+json") == true)
            // Under the servers' base path too (a client configured with the production URL).
            let (_, based) = try await stubs.session.data(from: URL(string: "http://localhost/api/movies/42")!)
            #expect((based as? HTTPURLResponse)?.statusCode == 200)
            // The stub folder beside it still answers.
            let (_, greeted) = try await stubs.session.data(from: greeting)
            #expect((greeted as? HTTPURLResponse)?.statusCode == 200)
        }
    }
}
#endif
