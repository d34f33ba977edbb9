import APICheckCrawler
import APICheckFindings
import APICheckJSON
import APICheckModel
@testable import APICheckProbe
import Foundation
import Synchronization
import Testing

/// A small API with the bugs probes exist for, answered in memory: a create that crashes on a
/// duplicate, a Location that 404s, a search that accepts an invalid size, an unknown id that
/// crashes a read.
final class BuggyAPI: CrawlFetcher, Sendable {
    private let state = Mutex((names: Set<String>(), authors: [Int: String](), requests: [String]()))
    var isLive: Bool { true }
    var requests: [String] { state.withLock { $0.requests } }

    func stubAnswers(_ request: FetchRequest, ignoringBody: Bool) -> StubAnswerCheck? { nil }

    func fetch(_ request: FetchRequest, maximumBodyBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResponse {
        let path = request.url.path
        let query = request.url.query ?? ""
        state.withLock { $0.requests.append("\(request.method) \(path)\(query.isEmpty ? "" : "?" + query)") }
        func answer(_ status: Int, _ body: String = "", type: String = "application/json", _ extra: [HTTPHeader] = []) -> FetchedResponse {
            FetchedResponse(status: status, headers: [HTTPHeader(name: "Content-Type", value: type)] + extra, body: Data(body.utf8))
        }
        switch (request.method, path) {
        case ("POST", "/authors"):
            guard case .string(let name)? = (try? JSONParser().parseValue([UInt8](request.body)))?["name"] else { return answer(422, #"{"error": "name"}"#) }
            return state.withLock { state in
                guard state.names.insert(name).inserted else { return answer(500, "<h1>IntegrityError</h1>", type: "text/html") }
                let id = state.authors.count + 1
                state.authors[id] = name
                return answer(201, #"{"name": "\#(name)"}"#, [HTTPHeader(name: "Location", value: "/authors/\(id)")])
            }
        case ("GET", _) where path.hasPrefix("/authors/"):
            let id = Int(path.dropFirst("/authors/".count)) ?? 0
            guard let name = state.withLock({ $0.authors[id] }) else { return answer(404, "{}") }
            return answer(200, #"{"name": "\#(name)", "_links": {"self": {"href": "\#(path)"}}, "_templates": {"delete": {"method": "DELETE"}}}"#, type: "application/prs.hal-forms+json")
        case ("DELETE", _) where path.hasPrefix("/authors/"):
            let id = Int(path.dropFirst("/authors/".count)) ?? 0
            return state.withLock { $0.authors.removeValue(forKey: id) } == nil ? answer(404, "{}") : answer(204)
        case ("POST", "/reviews"):
            return answer(201, #"{"data": {"type": "reviews", "id": "9"}}"#, type: "application/vnd.api+json", [HTTPHeader(name: "Location", value: "/reviews/9")])
        case ("GET", "/books"):
            return answer(200, #"{"books": []}"#)
        case ("GET", _) where path.hasPrefix("/items/"):
            return ["1", "2"].contains(path.dropFirst("/items/".count)) ? answer(200, "{}") : answer(500, "oops", type: "text/plain")
        default:
            return answer(404, "{}")
        }
    }
}

@Suite struct ProbeRunnerTests {
    static let root = URL(string: "http://api.test/")!

    static func write(_ method: String, _ path: String, rel: String, format: String = "HAL-FORMS", kind: Affordance.Kind = .write, responseType: String? = nil) -> Affordance {
        Affordance(
            kind: kind, method: method, target: "http://api.test" + path, rel: rel, format: format, relPath: [String(path.dropFirst()), rel],
            sourcePointer: "/_templates/\(rel)", referrer: "http://api.test" + path, requestContentType: "application/json", responseType: responseType)
    }

    static func entry(_ affordance: Affordance, _ cases: [ProbeCase]) -> ProbePlan.Entry {
        ProbePlan.Entry(affordance: affordance, requests: cases.map {
            PlannedRequest(method: affordance.method, url: affordance.target, label: $0.label, field: $0.field, probeCase: $0)
        })
    }

    static func object(_ members: (String, JSONValue)...) -> JSONValue { .object(members.map { JSONMember($0.0, $0.1) }) }

    @Test func eachOracleFindsItsBugOnceAndWhatWasCreatedIsDeletedAgain() async throws {
        let api = BuggyAPI()
        let authors = Self.write("POST", "/authors", rel: "default")
        let reviews = Self.write("POST", "/reviews", rel: "create", format: "JSON:API", responseType: "application/vnd.api+json")
        let search = Self.write("GET", "/books", rel: "search", kind: .queryForm)
        let items = Affordance(
            kind: .templatedRead, method: "GET", target: "http://api.test/items/{id}", rel: "item", format: "HAL", relPath: ["item"],
            sourcePointer: "/_links/item", referrer: "http://api.test/")
        let plan = ProbePlan(entries: [
            Self.entry(authors, [
                ProbeCase(label: "valid: example 1", body: Self.object(("name", .string("Ada")))),
                ProbeCase(label: "name: wrong type (number)", field: "name", body: Self.object(("name", .number("5"))), breaks: "type"),
            ]),
            Self.entry(reviews, [ProbeCase(label: "valid: example 1", body: Self.object(("rating", .number("4"))))]),
            Self.entry(search, [
                ProbeCase(label: "size: min - 1 (0)", field: "size", body: Self.object(("size", .number("0"))), breaks: "minimum"),
                ProbeCase(label: "size: max + 1 (101)", field: "size", body: Self.object(("size", .number("101"))), breaks: "maximum"),
            ]),
            ProbePlan.Entry(affordance: items, requests: [
                PlannedRequest(method: "GET", url: "http://api.test/items/3", label: "one past the largest id (3)", field: "id"),
                PlannedRequest(method: "GET", url: "http://api.test/items/0", label: "0", field: "id"),
            ]),
        ], skipped: [])
        let collector = AffordanceCollector()
        let outcome = await ProbeRunner(fetcher: api, options: ProbeOptions(root: Self.root, unsafe: true, shrinkAttempts: 0))
            .run(plan, collector: collector)
        let found = outcome.findings.map { "\($0.rule) \($0.method) \($0.url) \($0.probe?.field ?? "-")" }
        #expect(found.sorted() == [
            "probe-accepts-invalid GET http://api.test/books?size=0 size",
            "probe-created-resolves POST http://api.test/reviews -",
            "probe-server-error GET http://api.test/items/3 id",
            "probe-server-error POST http://api.test/authors -",
        ], "one finding per rule, affordance and field (size=101 is the same defect): \(found)")
        let duplicate = try #require(outcome.findings.first { $0.rule == .probeServerError && $0.method == "POST" })
        #expect(duplicate.message.contains("the same valid body sent twice"))
        #expect(duplicate.actual == "500" && duplicate.relPath == ["authors", "default"] && duplicate.sourcePointer == "/_templates/default")
        #expect(Reproduction.of(duplicate) == #"for i in $(seq 2); do curl -i -X 'POST' -H 'Content-Type: application/json' --data-binary '{"name":"Ada"}' 'http://api.test/authors'; done"#)
        // The created author advertised DELETE on itself: deleted, and checked gone.
        #expect(outcome.summary.created == 2 && outcome.summary.deleted == 1)
        #expect(api.requests.suffix(2) == ["DELETE /authors/1", "GET /authors/1"])
        // The review's Location 404s: nothing advertises its DELETE, so it is listed as left behind.
        #expect(outcome.summary.leftBehind == ["http://api.test/reviews/9"])
        #expect(outcome.summary.requests == api.requests.count)
    }

    /// Answers every POST with a 201 of another type than declared, or JSON that does not parse.
    final class WrongTypes: CrawlFetcher, Sendable {
        var isLive: Bool { true }
        func stubAnswers(_ request: FetchRequest, ignoringBody: Bool) -> StubAnswerCheck? { nil }
        func fetch(_ request: FetchRequest, maximumBodyBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResponse {
            if request.url.path == "/plain" {
                return FetchedResponse(status: 201, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Data(#"{"ok": true}"#.utf8))
            }
            let html = request.url.path == "/html"
            return FetchedResponse(
                status: 201, headers: [HTTPHeader(name: "Content-Type", value: html ? "text/html" : "application/vnd.api+json")],
                body: Data((html ? "<p>created</p>" : "{not json").utf8))
        }
    }

    @Test func aTypeOtherThanDeclaredOrABodyThatIsNotItsTypeIsAResponseTypeFinding() async {
        let declared = "application/vnd.api+json"
        let html = Self.write("POST", "/html", rel: "create", format: "JSON:API", responseType: declared)
        let broken = Self.write("POST", "/broken", rel: "create", format: "JSON:API", responseType: declared)
        let valid = ProbeCase(label: "valid: example 1", body: Self.object(("rating", .number("4"))))
        let outcome = await ProbeRunner(fetcher: WrongTypes(), options: ProbeOptions(root: Self.root, unsafe: true))
            .run(ProbePlan(entries: [Self.entry(html, [valid]), Self.entry(broken, [valid])], skipped: []), collector: AffordanceCollector())
        let types = outcome.findings.filter { $0.rule == .probeResponseType }
        #expect(types.map(\.url) == ["http://api.test/html", "http://api.test/broken"])
        #expect(types.first?.expected == declared && types.first?.actual == "text/html")
        #expect(types.last?.message.contains("not one") == true, "\(types.map(\.message))")
    }

    /// A document that requires `id` in every 201 body.
    struct NeedsAnID: ResponseContract {
        func violations(of answer: ContractAnswer) -> [ContractViolation] {
            guard answer.status == 201, answer.body.map({ String(decoding: $0, as: UTF8.self).contains("\"id\"") }) != true else { return [] }
            return [ContractViolation(rule: .openAPIBody, expected: "POST /reviews 201: required", actual: "no id", pointer: "", message: "/ : id is required")]
        }
    }

    @Test func anAcceptedAnswerThatBreaksTheDocumentIsAResponseTypeFinding() async {
        let reviews = Self.write("POST", "/reviews", rel: "create", format: "JSON:API")
        var options = ProbeOptions(root: Self.root, unsafe: true)
        options.contract = NeedsAnID()
        let valid = ProbeCase(label: "valid: example 1", body: Self.object(("rating", .number("4"))))
        let withID = await ProbeRunner(fetcher: BuggyAPI(), options: options)
            .run(ProbePlan(entries: [Self.entry(reviews, [valid])], skipped: []), collector: AffordanceCollector())
        #expect(!withID.findings.contains { $0.rule == .probeResponseType }, "BuggyAPI's 201 has an id")
        let plain = Self.write("POST", "/plain", rel: "create", format: "JSON:API")
        let without = await ProbeRunner(fetcher: WrongTypes(), options: options)
            .run(ProbePlan(entries: [Self.entry(plain, [valid])], skipped: []), collector: AffordanceCollector())
        let finding = without.findings.first { $0.rule == .probeResponseType }
        #expect(finding?.message.contains("which breaks the document: / : id is required") == true, "\(without.findings.map(\.message))")
    }

    /// `/things/1` exists before the probe; POST creates more; PUT renames any.
    final class Things: CrawlFetcher, Sendable {
        let names = Mutex([1: "Original"])
        let puts = Mutex<[String]>([])
        var isLive: Bool { true }
        func stubAnswers(_ request: FetchRequest, ignoringBody: Bool) -> StubAnswerCheck? { nil }
        func fetch(_ request: FetchRequest, maximumBodyBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResponse {
            let name: String? = if case .string(let name)? = (try? JSONParser().parseValue([UInt8](request.body)))?["name"] { name } else { nil }
            let id = Int(request.url.lastPathComponent) ?? 0
            let json = [HTTPHeader(name: "Content-Type", value: "application/json")]
            switch request.method {
            case "POST":
                let created = names.withLock { names in
                    let id = names.count + 1
                    names[id] = name ?? "?"
                    return id
                }
                return FetchedResponse(status: 201, headers: json + [HTTPHeader(name: "Location", value: "/things/\(created)")], body: Data("{}".utf8))
            case "PUT":
                puts.withLock { $0.append(request.url.path + " " + (name ?? "-")) }
                names.withLock { $0[id] = name ?? "?" }
                return FetchedResponse(status: 200, headers: json, body: Data("{}".utf8))
            default:
                guard let name = names.withLock({ $0[id] }) else { return FetchedResponse(status: 404, headers: json, body: Data("{}".utf8)) }
                return FetchedResponse(status: 200, headers: json, body: Data(#"{"name": "\#(name)", "_links": {"self": {"href": "/things/\#(id)"}}}"#.utf8))
            }
        }
    }

    /// An edit form of `/things/1` (or of `path`) whose body has a `name`.
    static func edit(_ path: String = "/things/1") -> Affordance {
        var edit = write("PUT", path, rel: "edit")
        edit.bodySchema = .object([JSONMember("type", .string("object")), JSONMember("properties", .object([JSONMember("name", .object([]))]))])
        return edit
    }

    @Test func anEditFormIsProbedOnAResourceTheProbeCreatedNotOnTheAPIsOwn() async {
        let api = Things()
        let rename = ProbeCase(label: "valid: generated #1", body: Self.object(("name", .string("probe"))))
        let plan = ProbePlan(entries: [
            Self.entry(Self.write("POST", "/things", rel: "create"), [rename]),
            Self.entry(Self.edit(), [rename]),
        ], skipped: [])
        let outcome = await ProbeRunner(fetcher: api, options: ProbeOptions(root: Self.root, unsafe: true)).run(plan, collector: AffordanceCollector())
        #expect(api.puts.withLock { $0 } == ["/things/2 probe"], "the thing the probe created, not /things/1")
        #expect(api.names.withLock { $0[1] } == "Original")
        #expect(outcome.summary.restored == 0 && outcome.summary.changed == [])
    }

    @Test func anExistingResourceAProbeChangedIsPutBackOrListed() async {
        let rename = ProbeCase(label: "valid: generated #1", body: Self.object(("name", .string("probe"))))
        let api = Things()
        let restored = await ProbeRunner(fetcher: api, options: ProbeOptions(root: Self.root, unsafe: true))
            .run(ProbePlan(entries: [Self.entry(Self.edit(), [rename])], skipped: []), collector: AffordanceCollector())
        // Read before (its name, the member the form sends), probed, put back as read.
        #expect(api.puts.withLock { $0 } == ["/things/1 probe", "/things/1 Original"])
        #expect(api.names.withLock { $0[1] } == "Original")
        #expect(restored.summary.restored == 1 && restored.summary.changed == [])
        // /things/9 does not answer GET until the probe's PUT makes it: nothing to put back, listed.
        let changed = await ProbeRunner(fetcher: Things(), options: ProbeOptions(root: Self.root, unsafe: true))
            .run(ProbePlan(entries: [Self.entry(Self.edit("/things/9"), [rename])], skipped: []), collector: AffordanceCollector())
        #expect(changed.summary.changed == ["http://api.test/things/9"], "not read before: listed")
    }

    /// A search that answers 201 naming a resource with a DELETE: probed without --unsafe, never
    /// deleted; a URL our own client refuses is no server error.
    final class OddAnswers: CrawlFetcher, Sendable {
        let methods = Mutex<[String]>([])
        var isLive: Bool { true }
        func stubAnswers(_ request: FetchRequest, ignoringBody: Bool) -> StubAnswerCheck? { nil }
        func fetch(_ request: FetchRequest, maximumBodyBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResponse {
            methods.withLock { $0.append(request.method) }
            if request.url.query?.contains("bad") == true { throw FetchError(.invalidURL, "refused by the client") }
            return FetchedResponse(
                status: 201, headers: [HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "Location", value: "/things/1")],
                body: Data(#"{"_links": {"self": {"href": "/things/1"}}, "_templates": {"delete": {"method": "DELETE"}}}"#.utf8))
        }
    }

    @Test func aSearchNeverCreatesNorDeletesAndAURLOurClientRefusesIsNoServerError() async {
        let api = OddAnswers()
        let search = Self.write("GET", "/things", rel: "search", kind: .queryForm)
        let cases = [
            ProbeCase(label: "q: valid", field: "q", body: Self.object(("q", .string("x")))),
            ProbeCase(label: "q: refused", field: "q", body: Self.object(("q", .string("bad")))),
        ]
        let outcome = await ProbeRunner(fetcher: api, options: ProbeOptions(root: Self.root))
            .run(ProbePlan(entries: [Self.entry(search, cases)], skipped: []), collector: AffordanceCollector())
        #expect(api.methods.withLock { $0 } == ["GET", "GET"], "no DELETE, no check of what a search 'created'")
        #expect(outcome.summary.created == 0)
        #expect(outcome.findings.isEmpty, "\(outcome.findings.map(\.message))")
    }

    @Test func nothingIsSentPastTheLimitAndTheLimitIsAFinding() async {
        let api = BuggyAPI()
        let search = Self.write("GET", "/books", rel: "search", kind: .queryForm)
        let cases = (1...5).map { ProbeCase(label: "size \($0)", field: "size", body: Self.object(("size", .number("\($0)")))) }
        let outcome = await ProbeRunner(fetcher: api, options: ProbeOptions(root: Self.root, maximumRequests: 3))
            .run(ProbePlan(entries: [Self.entry(search, cases)], skipped: []), collector: AffordanceCollector())
        #expect(api.requests.count == 3)
        #expect(outcome.summary.notSent == 2)
        #expect(outcome.findings.map(\.rule) == [.crawlLimit])
    }

    @Test func anInterruptedProbeStopsSendingButStillCleansUp() async {
        let api = BuggyAPI()
        let interruption = CrawlInterruption()
        let authors = Self.write("POST", "/authors", rel: "default")
        let plan = ProbePlan(entries: [Self.entry(authors, [ProbeCase(label: "valid", body: Self.object(("name", .string("Ada"))))])], skipped: [])
        interruption.interrupt(signal: 2)
        let outcome = await ProbeRunner(fetcher: api, options: ProbeOptions(root: Self.root, unsafe: true, interruption: interruption))
            .run(plan, collector: AffordanceCollector())
        #expect(api.requests.isEmpty)
        #expect(outcome.summary.interrupted)
    }
}
