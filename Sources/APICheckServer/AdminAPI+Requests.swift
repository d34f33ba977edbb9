import APICheckJSON
import APICheckModel
import APICheckResponder
import APICheckStubFiles
import Foundation
import NIOHTTP1

/// Journal queries, as WireMock users script them (`/__admin/requests/find`, `/count`,
/// `/unmatched`): a request pattern with the keys of a stub's `"request"` (method and path may be
/// left out to mean any), matched against each journaled request by the stub matcher itself, so
/// "which requests would this stub have answered" has exactly one answer.
extension AdminAPI {
    static func requests(method: HTTPMethod, route: [String], query: [StubRequest.QueryItem], body: [UInt8], core: ServerCore) -> Reply {
        switch (method, route.first ?? "") {
        case (.POST, "find") where route.count == 1, (.POST, "count") where route.count == 1:
            let pattern: RequestPattern
            var warnings: [Diagnostic] = []
            if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
                pattern = RequestPattern(method: nil, path: .anything)
            } else {
                let decoded = StubLoader(options: core.source?.options ?? StubLoadOptions()).decodeRequestPattern(json: body, named: requestBodyName)
                guard let decodedPattern = decoded.pattern else {
                    let errors = decoded.diagnostics.filter { $0.severity == .error }
                    return .now(
                        status: 422,
                        body: StubReply.problem(
                            status: 422, title: "Invalid request pattern", detail: errors.map(\.description).joined(separator: "\n"),
                            extra: [JSONMember("diagnostics", diagnosticsJSON(decoded.diagnostics))]),
                        headers: [])
                }
                pattern = decodedPattern
                warnings = decoded.diagnostics
            }
            // An unknown key (`mthod`) is a warning, as in a stub file: the pattern then matches more than meant.
            let said = JSONMember("warnings", .array(warnings.map { .string($0.description) }))
            let matching = matchingEntries(pattern, in: core.responder.journal.all)
            if route[0] == "count" {
                return ok(.object([JSONMember("schemaVersion", 1), JSONMember("count", .number(Double(matching.count))), said]))
            }
            guard case .object(let members) = page(matching, total: matching.count, query: query) else { return ok(.null) }
            return ok(.object(members + [said]))
        case (.GET, "unmatched") where route.count == 1:
            let unmatched = core.responder.journal.all.enumerated().filter { _, entry in
                if case .unmatched = entry.outcome { return true }
                return false
            }
            return ok(page(unmatched, total: unmatched.count, query: query, nearMisses: true))
        case (_, "find"), (_, "count"), (_, "unmatched"):
            return methodNotAllowed(method, prefix + "requests/" + route.joined(separator: "/"))
        default:
            return problem(404, "No such admin endpoint", "\(prefix)requests/ has find (POST), count (POST) and unmatched (GET)")
        }
    }

    /// Journal entries (with their journal index) that `pattern` matches, oldest first.
    static func matchingEntries(_ pattern: RequestPattern, in entries: [JournalEntry]) -> [(offset: Int, element: JournalEntry)] {
        let probe = StubSet([Stub(id: "query", name: "query", request: pattern, response: StubResponse(), source: SourceLocation(path: "query"))])
        // A journaled body may be a prefix (``StubJournal/maximumBodyBytes``): body constraints see what was kept.
        return entries.enumerated().filter { _, entry in probe.match(entry.request).matched != nil }
    }

    /// At most `limit` (default 100, at most 1,000) of `entries` from `offset`, with the total.
    private static func page(_ entries: [(offset: Int, element: JournalEntry)], total: Int, query: [StubRequest.QueryItem], nearMisses: Bool = false) -> JSONValue {
        let offset = max(0, query.first { $0.name == "offset" }?.value.flatMap { Int($0) } ?? 0)
        let limit = min(max(0, query.first { $0.name == "limit" }?.value.flatMap { Int($0) } ?? defaultPageSize), maximumPageSize)
        let shown = entries.dropFirst(offset).prefix(limit)
        return .object([
            JSONMember("schemaVersion", 1), JSONMember("total", .number(Double(total))),
            JSONMember("offset", .number(Double(offset))), JSONMember("limit", .number(Double(limit))),
            JSONMember(
                "requests",
                .array(shown.map { index, entry in
                    guard nearMisses, case .unmatched(let report) = entry.outcome, case .object(var members) = entryJSON(entry, index: index) else {
                        return entryJSON(entry, index: index)
                    }
                    members.append(JSONMember("nearMisses", nearMissesJSON(report)))
                    return .object(members)
                })
            ),
        ])
    }

    /// The stubs that came closest, and how each differs from the request.
    static func nearMissesJSON(_ report: NearMissReport) -> JSONValue {
        .array(report.nearMisses.map { miss in
            .object([
                JSONMember("stubId", .string(miss.stub.id)), JSONMember("stub", .string(miss.stub.name)),
                JSONMember("source", .string(miss.stub.source.description)),
                JSONMember("differences", .array(miss.differences.map { .string($0.description) })),
            ])
        })
    }
}
