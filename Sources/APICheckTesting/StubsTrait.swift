#if compiler(>=6.1)
import APICheckInterceptor
import Foundation
import Logging
import Testing

/// Runs each test (of a test, or of every test in a suite) inside its own stubs scope:
/// `@Test(.stubs("stubs"))`, then ``Stubs/current`` in the test. The same scope as
/// ``withStubs(_:root:options:unmatched:warnings:record:logger:fileID:filePath:line:column:_:)``,
/// with the same paths and defaults; a miss is reported at the test's own line, even when the trait
/// is on its suite.
public struct StubsTrait: TestTrait, SuiteTrait, TestScoping {
    let setup: StubsSetup

    /// Applies to each test of a suite, not once around it: every test gets fresh stub state.
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> StubsTrait? {
        // Each test case gets its own scope; the suite itself and a parameterised test's
        // function as a whole need none.
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let reporter = TestReporter(.swiftTesting, at: CallSite(test.sourceLocation, file: setup.site.file), logger: setup.logger ?? Logger.current)
        try await withStubs(setup, reporter: reporter) { _ in try await function() }
    }
}

extension Trait where Self == StubsTrait {
    /// Answers the test's requests from these stub files or folders, relative to this test file
    /// unless absolute; parameters as ``StubsSetup/init(_:root:options:unmatched:warnings:record:logger:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// @Suite(.stubs("stubs")) struct GistsTests {              // Tests/AppTests/stubs/
    ///     @Test func listsGists() async throws {
    ///         let stubs = Stubs.current
    ///         let gists = try await GistsClient(session: stubs.session).list()
    ///         #expect(gists.count == 2)
    ///         stubs.expectRequested("GET", "/gists", .exactly(1))
    ///     }
    /// }
    /// ```
    public static func stubs(
        _ paths: String..., root: String? = nil, options: StubInterceptor.Options = StubInterceptor.Options(),
        unmatched: UnmatchedRequests = .fail, warnings: LoaderWarnings = .record, record: StubRecording = .replay, logger: Logger? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> StubsTrait {
        StubsTrait(setup: StubsSetup(
            paths: paths, root: root, options: options, unmatched: unmatched, warnings: warnings, record: record, logger: logger,
            site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)))
    }
}
#endif
