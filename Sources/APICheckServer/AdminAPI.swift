import APICheckJSON
import APICheckModel
import APICheckResponder
import Foundation
import NIOCore
import NIOHTTP1

/// The admin API under `/__apicheck/`: JSON in, JSON out (`schemaVersion` 1).
///
/// | request | answer |
/// |---|---|
/// | `GET /__apicheck/health` | status, stub count, uptime, reloads |
/// | `GET /__apicheck/stubs` | every stub: id, name, method, path, status, source, scenario, `origin` (`runtime` or `file`) |
/// | `GET /__apicheck/stubs/{id}` | one of them |
/// | `POST /__apicheck/stubs` | adds runtime stubs (a JSON stub, or `{"stubs": [...]}`), checked like files: 201, or 422 with located errors |
/// | `PUT /__apicheck/stubs/{id}` | replaces a runtime stub |
/// | `DELETE /__apicheck/stubs/{id}` | removes a runtime stub; `DELETE /__apicheck/stubs` removes them all |
/// | `POST /__apicheck/reset` | back to the files: runtime stubs, journal, sequences and scenario selections go |
/// | `GET /__apicheck/journal?offset=&limit=` | a page of the request journal, oldest first |
/// | `DELETE /__apicheck/journal` | forgets the journal |
/// | `POST /__apicheck/requests/find`, `/requests/count` | journal entries a request pattern (a stub's `request` keys) matches, or their count |
/// | `GET /__apicheck/requests/unmatched` | requests no stub answered, with their near misses |
/// | `GET /__apicheck/scenarios` | use cases, their scenarios and the active one |
/// | `PUT`/`POST /__apicheck/scenarios/{use-case}` `{"scenario": "name"}` | selects a scenario |
/// | `DELETE /__apicheck/scenarios/{use-case}` | lets every scenario of the use case compete again |
/// | `POST /__apicheck/reload` | loads the stub files again (kept only without errors) |
///
/// Answered before any stub, so a stub under `/__apicheck/` is shadowed (reported when loaded).
/// Who may call it is ``AdminGuard``'s: this server's own `Host`, no other site's `Origin`, and
/// loopback peers, or anyone with `Authorization: Bearer <token>` when the server has a token.
enum AdminAPI {
    static let prefix = "/__apicheck/"
    static let defaultPageSize = 100
    static let maximumPageSize = 1000

    /// Whether the request target is the admin API's (checked on the raw target, cheaply).
    static func isAdminTarget(_ uri: String) -> Bool {
        let utf8 = uri.utf8
        // Most targets differ at the second byte; only those that do not pay for the full check.
        guard utf8.count >= 11, utf8[utf8.index(after: utf8.startIndex)] == UInt8(ascii: "_") else { return false }
        return utf8.starts(with: "/__apicheck".utf8) && (utf8.count == 11 || [UInt8(ascii: "/"), UInt8(ascii: "?")].contains(utf8.dropFirst(11).first))
    }

    /// Whether a stub's path is answered by the admin API instead.
    static func shadows(_ path: PathPattern) -> Bool {
        path.text == "/__apicheck" || path.text.hasPrefix(prefix)
    }

    enum Reply {
        case now(status: Int, body: JSONValue, headers: [(String, String)])
        /// The live page (``LivePage``), for a browser.
        case page
        /// Reload on the thread pool, then answer.
        case reload
    }

    static func handle(
        method: HTTPMethod, uri: String, headers: HTTPHeaders, body: ByteBuffer?, peerIsLoopback: Bool, core: ServerCore
    ) -> Reply {
        let request = StubRequest(method: method.rawValue, target: uri)
        let route = request.path.dropFirst(prefix.count - 1).split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // The live page holds no data: with a token it is served without one, and asks for it.
        let isPage = method == .GET && route.isEmpty && (headers.first(name: "accept")?.contains("text/html") ?? false)
        switch core.adminGuard.check(headers: headers, peerIsLoopback: peerIsLoopback, tokenNeeded: !isPage) {
        case .foreignHost(let host)?:
            return problem(
                403, "Host not accepted",
                "the admin API answers requests for this server's own names (an IP address, localhost, --host, --base-url); \"\(host)\" is not one of them. Add it with --admin-host if it is yours")
        case .crossOrigin(let origin)?:
            return problem(403, "Cross-origin request refused", "the admin API answers pages of its own origin only, not \(origin)")
        case .tokenRequired?:
            return problem(401, "Admin token required", "send Authorization: Bearer <token> (the server's --admin-token)", headers: [("WWW-Authenticate", "Bearer realm=\"apicheck\"")])
        case .notLoopback?:
            return problem(403, "Admin API is loopback-only", "call it from 127.0.0.1 or ::1, or start the server with --admin-token")
        case nil:
            break
        }
        if isPage { return .page }
        let bytes = body.map { Array($0.readableBytesView) } ?? []
        switch (method, route.first ?? "") {
        case (.GET, "") where route.isEmpty:
            return ok(index(core))
        case (.GET, "health") where route.count == 1:
            return ok(health(core))
        case (_, "stubs"):
            return stubs(
                method: method, id: route.count > 1 ? route.dropFirst().joined(separator: "/").removingPercentEncoding : nil, query: request.query, body: bytes, core: core)
        case (.POST, "reset") where route.count == 1:
            return reset(core)
        case (.GET, "journal") where route.count == 1:
            let offset = request.query.first { $0.name == "offset" }?.value.flatMap { Int($0) } ?? 0
            let limit = request.query.first { $0.name == "limit" }?.value.flatMap { Int($0) } ?? defaultPageSize
            guard offset >= 0, limit >= 0 else { return problem(400, "Bad page", "offset and limit are whole numbers ≥ 0") }
            return ok(journal(core, offset: offset, limit: min(limit, maximumPageSize)))
        case (.DELETE, "journal") where route.count == 1:
            let count = core.responder.journal.count
            core.responder.journal.clear()
            return ok(.object([JSONMember("schemaVersion", 1), JSONMember("cleared", .number(Double(count)))]))
        case (_, "requests"):
            return requests(method: method, route: Array(route.dropFirst()), query: request.query, body: bytes, core: core)
        case (.GET, "scenarios") where route.count == 1:
            return ok(scenarios(core))
        case (.PUT, "scenarios"), (.POST, "scenarios"), (.DELETE, "scenarios"):
            let useCase = route.dropFirst().joined(separator: "/")
            guard !useCase.isEmpty else { return problem(400, "No use case", "name the use case in the path: /__apicheck/scenarios/{use-case}") }
            return selectScenario(method: method, useCase: useCase, body: body, core: core)
        case (.POST, "reload") where route.count == 1:
            return .reload
        case (_, "health"), (_, "journal"), (_, "scenarios"), (_, "reload"), (_, "reset"):
            return methodNotAllowed(method, request.path)
        default:
            return problem(404, "No such admin endpoint", "\(request.path) is not part of the admin API: health, stubs, reset, journal, requests, scenarios, reload (docs/stub-server.md)")
        }
    }

    static func methodNotAllowed(_ method: HTTPMethod, _ path: String) -> Reply {
        problem(405, "Method not allowed", "\(method.rawValue) is not supported on \(path); see docs/stub-server.md")
    }

    /// Compares secrets in time that depends only on their lengths.
    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0xFF)
        }
        return difference == 0
    }

    // MARK: Endpoints

    /// `GET /__apicheck/` for programs: where everything is (a browser gets the live page).
    private static func index(_ core: ServerCore) -> JSONValue {
        let endpoints = ["health", "stubs", "reset", "journal", "requests/find", "requests/count", "requests/unmatched", "scenarios", "reload"]
        return .object([
            JSONMember("schemaVersion", 1),
            JSONMember("livePage", .string(core.baseURL + prefix)),
            JSONMember("_links", .object(endpoints.map { JSONMember($0, .object([JSONMember("href", .string(prefix + $0))])) })),
            JSONMember("documentation", "docs/stub-server.md#the-admin-api"),
        ])
    }

    private static func health(_ core: ServerCore) -> JSONValue {
        let reload = core.reloadStatus
        var members = [
            JSONMember("schemaVersion", 1), JSONMember("status", "ok"),
            JSONMember("stubs", .number(Double(core.served.stubs.count))),
            JSONMember("runtimeStubs", .number(Double(core.runtimeStubs.count))),
            JSONMember("baseURL", .string(core.baseURL)),
            JSONMember("uptimeSeconds", .number(((ContinuousClock.now - core.startedAt) / .milliseconds(1)).rounded() / 1000)),
            JSONMember("connections", .number(Double(core.connections.count))),
            JSONMember("journalEntries", .number(Double(core.responder.journal.count))),
            JSONMember("reloads", .number(Double(reload.count))),
        ]
        if let last = reload.last { members.append(JSONMember("lastReload", reloadJSON(last))) }
        return .object(members)
    }

    private static func journal(_ core: ServerCore, offset: Int, limit: Int) -> JSONValue {
        let page = core.responder.journal.entries(offset: offset, limit: limit)
        return .object([
            JSONMember("schemaVersion", 1), JSONMember("total", .number(Double(page.total))),
            JSONMember("offset", .number(Double(offset))), JSONMember("limit", .number(Double(limit))),
            JSONMember("entries", .array(page.entries.enumerated().map { index, entry in entryJSON(entry, index: offset + index) })),
        ])
    }

    /// Request bodies shown in the journal as text up to this size.
    static let journalBodyLimit = 64 << 10

    static func entryJSON(_ entry: JournalEntry, index: Int) -> JSONValue {
        var members = [
            JSONMember("index", .number(Double(index))),
            JSONMember("date", .string(timestamp(entry.date))),
            JSONMember("method", .string(entry.request.method)), JSONMember("path", .string(entry.request.path)),
            JSONMember("url", .string(entry.url.absoluteString)),
            JSONMember("headers", .array(entry.request.headers.map { .object([JSONMember("name", .string($0.name)), JSONMember("value", .string($0.value))]) })),
            JSONMember("bodyBytes", .number(Double(entry.bodyByteCount))),
        ]
        if !entry.request.body.isEmpty, entry.request.body.count <= journalBodyLimit, let text = entry.bodyText {
            members.append(JSONMember("body", .string(text)))
        }
        // The journal kept a prefix: `body` (when text) is that prefix, `bodyBytes` the size received.
        if entry.isBodyTruncated { members.append(JSONMember("bodyTruncated", .bool(true))) }
        let outcome: JSONValue
        switch entry.outcome {
        case .stubbed(let id, let name, let status, let failure):
            var fields = [JSONMember("kind", "stubbed"), JSONMember("stubId", .string(id)), JSONMember("stub", .string(name)), JSONMember("status", .number(Double(status)))]
            if let failure { fields.append(JSONMember("failure", .string(failure.rawValue))) }
            outcome = .object(fields)
        case .unmatched(let report):
            outcome = .object([JSONMember("kind", "unmatched"), JSONMember("detail", .string(report.description))])
        case .passedThrough:
            outcome = .object([JSONMember("kind", "passedThrough")])
        case .failed(let message):
            outcome = .object([JSONMember("kind", "failed"), JSONMember("message", .string(message))])
        }
        members.append(JSONMember("outcome", outcome))
        return .object(members)
    }

    /// Use cases (folders) that have more than one scenario, or any selected one.
    private static func scenarios(_ core: ServerCore) -> JSONValue {
        let selection = core.responder.scenarios
        var order: [String] = []
        var names: [String: [String]] = [:]
        for stub in core.served.stubs.stubs {
            guard let tag = stub.scenario else { continue }
            if names[tag.useCase] == nil { order.append(tag.useCase) }
            if !(names[tag.useCase]?.contains(tag.name) ?? false) { names[tag.useCase, default: []].append(tag.name) }
        }
        return .object([
            JSONMember("schemaVersion", 1),
            JSONMember(
                "useCases",
                .array(order.map { useCase in
                    .object([
                        JSONMember("useCase", .string(useCase)),
                        JSONMember("scenarios", .array((names[useCase] ?? []).map(JSONValue.string))),
                        JSONMember("active", selection[useCase].map(JSONValue.string) ?? .null),
                    ])
                })
            ),
        ])
    }

    private static func selectScenario(method: HTTPMethod, useCase: String, body: ByteBuffer?, core: ServerCore) -> Reply {
        let known = core.served.stubs.stubs.compactMap(\.scenario).filter { $0.useCase == useCase }.map(\.name)
        guard !known.isEmpty else {
            return problem(404, "No such use case", "no stub belongs to use case \"\(useCase)\" (the folder of its stub files); GET /__apicheck/scenarios lists them")
        }
        if method == .DELETE {
            core.responder.clearSelection(for: useCase)
            return ok(.object([JSONMember("schemaVersion", 1), JSONMember("useCase", .string(useCase)), JSONMember("active", .null)]))
        }
        let bytes = body.map { Array($0.readableBytesView) } ?? []
        guard let json = try? JSONParser(maximumDepth: 8).parseValue(bytes), case .string(let scenario)? = json["scenario"] else {
            return problem(400, "Bad scenario selection", "send a JSON body like {\"scenario\": \"\(known[0])\"}")
        }
        guard known.contains(scenario) else {
            return problem(404, "No such scenario", "use case \"\(useCase)\" has the scenarios \(known.joined(separator: ", ")), not \"\(scenario)\"")
        }
        core.responder.select(scenario, for: useCase)
        core.logger.info("scenario selected", metadata: ["useCase": "\(useCase)", "scenario": "\(scenario)"])
        return ok(.object([JSONMember("schemaVersion", 1), JSONMember("useCase", .string(useCase)), JSONMember("active", .string(scenario))]))
    }

    static func reloadJSON(_ outcome: ReloadOutcome) -> JSONValue {
        .object([
            JSONMember("accepted", .bool(outcome.accepted)), JSONMember("stubs", .number(Double(outcome.stubCount))),
            JSONMember("message", .string(outcome.message)),
            JSONMember("date", .string(timestamp(outcome.date))),
            JSONMember("diagnostics", diagnosticsJSON(outcome.diagnostics)),
        ])
    }

    /// Located messages as objects (path, line, column, message) and as the text a terminal shows.
    static func diagnosticsJSON(_ diagnostics: [Diagnostic]) -> JSONValue {
        .array(diagnostics.map { diagnostic in
            .object([
                JSONMember("severity", .string(diagnostic.severity.rawValue)), JSONMember("path", .string(diagnostic.location.path)),
                JSONMember("line", .number(Double(diagnostic.location.line))), JSONMember("column", .number(Double(diagnostic.location.column))),
                JSONMember("message", .string(diagnostic.message)), JSONMember("text", .string(diagnostic.description)),
            ])
        })
    }

    /// The answer to `POST /__apicheck/reload`: 200 when installed, 422 when kept the old set.
    static func reloadReply(_ outcome: ReloadOutcome, available: Bool) -> Reply {
        guard available else { return problem(409, "Nothing to reload", outcome.message) }
        var body = reloadJSON(outcome)
        if case .object(let members) = body { body = .object([JSONMember("schemaVersion", 1)] + members) }
        return .now(status: outcome.accepted ? 200 : 422, body: body, headers: [])
    }

    /// `2026-01-31T12:00:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        ISO8601Time.string(date)
    }

    static func ok(_ body: JSONValue) -> Reply {
        .now(status: 200, body: body, headers: [])
    }

    static func problem(_ status: Int, _ title: String, _ detail: String, headers: [(String, String)] = []) -> Reply {
        .now(status: status, body: StubReply.problem(status: status, title: title, detail: detail), headers: headers)
    }
}
