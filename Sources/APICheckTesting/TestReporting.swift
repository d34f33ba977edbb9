import APICheckInterceptor
import APICheckModel
import Foundation
import Logging
import Synchronization
import Testing

#if canImport(XCTest)
import XCTest
#endif

/// A place in a test file, in the terms of both frameworks: Swift Testing's `SourceLocation`, and
/// the `StaticString` file and line `XCTFail` takes.
struct CallSite: Sendable, CustomStringConvertible {
    var location: Testing.SourceLocation
    var file: StaticString
    var line: UInt { UInt(location.line) }

    init(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        location = Testing.SourceLocation(fileID: fileID.isEmpty ? "APICheckTesting/\(filePath)" : fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
        file = filePath
    }

    /// A Swift Testing location (a test's own); `file` is only for XCTest, which never sees it.
    init(_ location: Testing.SourceLocation, file: StaticString) {
        self.location = location
        self.file = file
    }

    /// `Module/File.swift:12:5`.
    var description: String { "\(location.fileID):\(location.line):\(location.column)" }
}

/// Where a scope's failures go, decided when it opens: Swift Testing issues inside a Swift
/// Testing test, `XCTFail` for ``StubsTestCase``, and otherwise (no test framework to record
/// them) collected and thrown when the scope ends as ``StubsScopeError``.
struct TestReporter: Sendable {
    enum Sink: Sendable {
        case swiftTesting
        case xcTest
        case thrown
    }

    let sink: Sink
    /// The line that opened the scope: misses are reported there.
    let site: CallSite
    /// Where stub-file warnings go when the framework has no warnings (XCTest).
    let logger: Logger
    private let collected = Collected()

    private final class Collected: Sendable {
        let failures = Mutex<[String]>([])
    }

    init(_ sink: Sink, at site: CallSite, logger: Logger? = nil) {
        self.sink = sink
        self.site = site
        self.logger = logger ?? Logger(label: "apicheck.testing", factory: { _ in SwiftLogNoOpLogHandler() })
    }

    /// The sink for a scope opened here by `withStubs`.
    static func forScope(at site: CallSite, logger: Logger?) -> TestReporter {
        TestReporter(Test.current != nil ? .swiftTesting : .thrown, at: site, logger: logger ?? Logger.current)
    }

    /// A failure at `site`: an issue, an `XCTFail`, or one more line of the error thrown at the end.
    func fail(_ message: String, at site: CallSite) {
        switch sink {
        case .swiftTesting:
            Issue.record(Comment(rawValue: message), sourceLocation: site.location)
        case .xcTest:
            #if canImport(XCTest)
            XCTFail(message, file: site.file, line: site.line)
            #else
            collected.failures.withLock { $0.append("\(site): \(message)") }
            #endif
        case .thrown:
            collected.failures.withLock { $0.append("\(site): error: \(message)") }
        }
    }

    /// A warning: a Swift Testing issue of severity warning, else logged (XCTest has none).
    func warn(_ message: String, at site: CallSite, logger: Logger) {
        #if compiler(>=6.2)
        if sink == .swiftTesting {
            Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: site.location)
            return
        }
        #endif
        logger.warning("\(site): warning: \(message)")
    }

    /// Reports what the scope found when it ended. `thrown` is what its body threw, if anything;
    /// what this returns is what the scope must throw (nil: return normally).
    ///
    /// A miss is reported once: when the body threw the miss's own `URLError`, that error is not
    /// rethrown beside the report (it is the same news), but replaced by a failure that Swift
    /// Testing does not record again (`#require`'s) or, outside a framework, by ``StubsScopeError``.
    func finish(misses: [Miss], unmatched: UnmatchedRequests, thrown: (any Error)?) -> (any Error)? {
        let misses = unmatched == .fail ? misses : []
        let thrownMiss = (thrown as? URLError)?.nearMissReport.flatMap { report in misses.first { $0.report == report } }
        switch sink {
        case .swiftTesting:
            for miss in misses where miss.report != thrownMiss?.report {
                Issue.record(Comment(rawValue: miss.message), sourceLocation: site.location)
            }
            if let thrownMiss { return Self.recordOnce(thrownMiss.message, at: site.location) }
            return thrown
        case .xcTest:
            #if canImport(XCTest)
            for miss in misses { XCTFail(miss.message, file: site.file, line: site.line) }
            return thrown
            #else
            return thrown
            #endif
        case .thrown:
            let failures = collected.failures.withLock { $0 }
            guard !misses.isEmpty || !failures.isEmpty else { return thrown }
            return StubsScopeError(site: site.description, misses: misses, failures: failures, underlying: thrownMiss == nil ? thrown : nil)
        }
    }

    /// Records `message` as one issue and returns the error `#require` throws after recording its
    /// own, which the test runner then does not record a second time.
    private static func recordOnce(_ message: String, at location: Testing.SourceLocation) -> any Error {
        let everyRequestMatchedAStub = false
        do {
            try #require(everyRequestMatchedAStub, Comment(rawValue: message), sourceLocation: location)
        } catch {
            return error
        }
        return CancellationError()  // not reached: the requirement above never holds
    }

    /// Stub-file warnings, as `policy` says.
    func report(_ warnings: [Diagnostic], as policy: LoaderWarnings) throws(StubLoadingError) {
        guard !warnings.isEmpty else { return }
        switch policy {
        case .ignore:
            return
        case .record:
            for warning in warnings { warn(warning.description, at: site, logger: logger) }
        case .fail where sink == .thrown:
            throw StubLoadingError(diagnostics: warnings)
        case .fail:
            for warning in warnings { fail(warning.description, at: site) }
        }
    }
}

/// What a stubs scope found when no test framework was there to record it (a detached task, a
/// tool): requests no stub answered and failed expectations, located like compiler diagnostics.
public struct StubsScopeError: Error, Sendable, CustomStringConvertible {
    /// The line that opened the scope.
    public var site: String
    /// The near-miss report of each request no stub answered.
    public var reports: [NearMissReport]
    /// Failed expectations (`expectRequested`, `select`…), each with its location.
    public var failures: [String]
    /// What the scope's body threw, when it was not itself a miss.
    public var underlying: (any Error)?
    /// Each miss with its method and full URL.
    private var messages: [String]

    init(site: String, misses: [Miss], failures: [String], underlying: (any Error)?) {
        self.site = site
        self.reports = misses.map(\.report)
        self.messages = misses.map(\.message)
        self.failures = failures
        self.underlying = underlying
    }

    public var description: String {
        var parts: [String] = []
        if !messages.isEmpty {
            parts.append("\(site): error: \(messages.count) \(messages.count == 1 ? "request" : "requests") matched no stub:\n" + messages.joined(separator: "\n"))
        }
        parts += failures
        if let underlying { parts.append("\(site): error: the body threw: \(underlying)") }
        return parts.joined(separator: "\n")
    }
}
