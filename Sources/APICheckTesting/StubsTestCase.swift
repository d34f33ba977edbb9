#if canImport(XCTest)
import APICheckInterceptor
import APICheckModel
import Foundation
import Logging
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// XCTest: every test of the class runs inside its own stubs scope, the same scope as
/// ``withStubs(_:root:options:unmatched:warnings:record:logger:fileID:filePath:line:column:_:)``
/// with the same paths (relative to the file that writes ``stubsSetup``) and defaults.
///
/// ```swift
/// final class GistsClientTests: StubsTestCase {
///     override var stubsSetup: StubsSetup { StubsSetup("stubs") }      // Tests/AppTests/stubs/
///
///     func testListsGists() async throws {
///         let gists = try await GistsClient(session: stubs.session).list()
///         XCTAssertEqual(gists.count, 2)
///         stubs.expectRequested("GET", "/gists", .exactly(1))
///     }
/// }
/// ```
///
/// Each request no stub answered fails the test once, at the line that writes ``stubsSetup``
/// (XCTest cannot know the test method's line). A broken stub file fails the test before it runs.
/// Stub-file warnings are logged (XCTest has no warnings) unless `warnings: .fail`.
open class StubsTestCase: XCTestCase {
    /// What every test of the class is answered from.
    open var stubsSetup: StubsSetup { StubsSetup() }

    /// The running test's stubs: session, journal, code stubs, expectations.
    public var stubs: Stubs {
        guard let running else {
            XCTFail("StubsTestCase.stubs: read outside a running test (or its stub files failed to load); its session refuses every request")
            return Stubs.outsideAnyScope
        }
        return running
    }

    private var running: Stubs?
    private var unmatched = UnmatchedRequests.fail

    /// Opens the test's scope. Subclasses that override it call `super.setUpWithError()` first.
    override open func setUpWithError() throws {
        try super.setUpWithError()
        let setup = stubsSetup
        unmatched = setup.unmatched
        running = try Stubs.open(setup, reporter: TestReporter(.xcTest, at: setup.site, logger: setup.logger ?? Logger.current))
    }

    /// Ends the test's scope and reports its misses. Subclasses that override it call
    /// `super.tearDown()` last.
    override open func tearDown() {
        if let running {
            _ = running.reporter.finish(misses: running.end(), unmatched: unmatched, thrown: nil)
        }
        running = nil
        super.tearDown()
    }

    #if !canImport(Darwin)
    /// A test that throws the `URLError` of one of its misses is reported once, at the setup's
    /// line, with the miss's method and URL; the scope then does not report it again.
    /// (swift-corelibs-xctest records a thrown error here as `threw error "…"` at `<EXPR>:0`.)
    override open func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if let running, filePath == "<EXPR>", let miss = Miss.all(in: running.journal).first(where: { description.contains($0.report.description) }),
            running.claim(miss.report) != nil, running.reporter.sink == .xcTest
        {
            super.recordFailure(withDescription: miss.message, inFile: "\(running.reporter.site.file)", atLine: Int(running.reporter.site.line), expected: true)
            return
        }
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
    #endif
}
#endif
