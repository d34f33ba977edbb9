import APICheckModel
import Foundation

/// How many times a request is expected.
public enum RequestCount: Sendable, Hashable, CustomStringConvertible {
    case exactly(Int)
    case atLeast(Int)
    case never

    func accepts(_ count: Int) -> Bool {
        switch self {
        case .exactly(let expected): count == expected
        case .atLeast(let minimum): count >= minimum
        case .never: count == 0
        }
    }

    public var description: String {
        switch self {
        case .exactly(let expected): "exactly \(expected) \(expected == 1 ? "time" : "times")"
        case .atLeast(let minimum): "at least \(minimum) \(minimum == 1 ? "time" : "times")"
        case .never: "never"
        }
    }
}

extension StubJournal {
    /// `nil` when requests matching `method` and `path` (literal, template or glob), and the body
    /// constraint if given, were sent `count` times; otherwise a message that lists what was sent.
    /// The assertions of APICheckTesting (XCTest and Swift Testing) report this message.
    public func verify(method: String? = nil, path: String, count: RequestCount = .atLeast(1), body: BodyConstraint? = nil) -> String? {
        var matching = requests(method: method?.uppercased(), path: path)
        if let body {
            let probe = StubSet([Stub(
                id: "probe", name: "probe", request: RequestPattern(method: nil, path: PathPattern.anything, body: [body]),
                response: StubResponse(), source: SourceLocation(path: "verify")
            )])
            matching = matching.filter { probe.match(StubRequest(method: $0.request.method, path: "/", body: $0.request.body)).matched != nil }
        }
        guard !count.accepts(matching.count) else { return nil }
        let what = "\(method?.uppercased() ?? "any method") \(path)" + (body.map { " with \($0)" } ?? "")
        return "expected \(what) to be requested \(count), but it was requested \(matching.count) \(matching.count == 1 ? "time" : "times").\n" + summary
    }

    /// `nil` when the requests `expected` (method, path) appear in this order (other requests
    /// may come between them); otherwise a message that lists what was sent.
    public func verifyOrder(_ expected: [(method: String, path: String)]) -> String? {
        var remaining = expected[...]
        for entry in all {
            guard let next = remaining.first else { break }
            let probe = StubSet([Stub(
                id: "probe", name: "probe", request: RequestPattern(method: next.method, path: (try? PathPattern.parse(next.path).get()) ?? PathPattern.anything),
                response: StubResponse(), source: SourceLocation(path: "verify")
            )])
            if probe.match(StubRequest(method: entry.request.method, path: entry.request.path)).matched != nil {
                remaining = remaining.dropFirst()
            }
        }
        guard let missing = remaining.first else { return nil }
        return "expected \(missing.method) \(missing.path) (request \(expected.count - remaining.count + 1) of \(expected.count) in order) but it was not sent after the ones before it.\n" + summary
    }

    /// The journal as lines, for failure messages.
    public var summary: String {
        let entries = all
        guard !entries.isEmpty else { return "No requests were sent." }
        var lines = ["Requests sent (\(entries.count)):"]
        for (index, entry) in entries.enumerated().suffix(50) {
            let outcome: String
            switch entry.outcome {
            case .stubbed(_, let name, let status, let failure): outcome = failure.map { "\"\(name)\" → \($0.rawValue)" } ?? "\"\(name)\" → \(status)"
            case .unmatched: outcome = "unmatched"
            case .passedThrough: outcome = "passed through"
            case .failed(let message): outcome = "failed: \(message)"
            }
            lines.append("  \(index + 1). \(entry.request.summary) — \(outcome)")
        }
        return lines.joined(separator: "\n")
    }
}
