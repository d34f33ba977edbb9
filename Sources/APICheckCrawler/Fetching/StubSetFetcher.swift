import APICheckModel
import APICheckResponder
import Foundation

/// Crawls a stub set in memory, no sockets: every request is answered by the same
/// ``StubResponder`` the interceptor and the server use (matching, scenarios, sequences,
/// templates with `baseURL` = the request's origin, body files read when sent).
///
/// Latency is not simulated (a crawl wants answers, not waiting); failure stubs surface as
/// ``FetchError``s the way a live network failure would.
public struct StubSetFetcher: CrawlFetcher {
    public let responder: StubResponder

    public init(responder: StubResponder) {
        self.responder = responder
    }

    public init(stubs: StubSet, scenarios: ScenarioSelection = [:]) {
        self.init(responder: StubResponder(stubs: stubs, scenarios: scenarios))
    }

    public var isLive: Bool { false }

    public func fetch(_ request: FetchRequest, maximumBodyBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResponse {
        let stubRequest = StubRequest(method: request.method, url: request.url, headers: request.headers, body: request.body)
        switch responder.answer(stubRequest) {
        case .unmatched(let report):
            responder.journal.record(JournalEntry(request: stubRequest, url: request.url, outcome: .unmatched(report)))
            // What `apicheck serve` answers for an unmatched request, so both crawls agree.
            let problem = StubResponder.problemDocument(for: report)
            return FetchedResponse(status: 404, headers: [HTTPHeader(name: "Content-Type", value: "application/problem+json")], body: problem)
        case .exhausted(let matched):
            throw FetchError(.connectionFailed, StubAnswer.exhaustedMessage(matched))
        case .stubbed(let matched, let response):
            responder.journal.record(JournalEntry(
                request: stubRequest, url: request.url,
                outcome: .stubbed(stubID: matched.stub.id, stubName: matched.stub.name, status: response.status, failure: response.failure)
            ))
            if let failure = response.failure {
                let kind: FetchError.Kind = failure == .timedOut ? .timedOut : .connectionFailed
                throw FetchError(kind, "stub \"\(matched.stub.name)\" simulates \(failure.rawValue)")
            }
            var body: Data
            switch response.body {
            case .bytes(let data):
                body = data
            case .file(let file):
                do {
                    body = try file.contents(maximumBytes: max(maximumBodyBytes, file.byteCount))
                } catch {
                    return FetchedResponse(status: 500, headers: [], body: Data())
                }
            case .template(let template):
                do {
                    body = try responder.render(template, for: matched, request: stubRequest, baseURL: StubResponder.origin(of: request.url))
                } catch {
                    return FetchedResponse(status: 500, headers: [], body: Data())
                }
            }
            var headers = response.headers.filter { !$0.name.caseInsensitiveEquals("Content-Length") }
            headers += response.cookies.map { HTTPHeader(name: "Set-Cookie", value: $0.setCookieValue) }
            if request.method == "HEAD" { body = Data() }
            let truncated = body.count > maximumBodyBytes
            if truncated { body = body.prefix(maximumBodyBytes) }
            return FetchedResponse(status: response.status, headers: headers, body: body, isTruncated: truncated)
        }
    }

    public func stubAnswers(_ request: FetchRequest, ignoringBody: Bool) -> StubAnswerCheck? {
        let stubRequest = StubRequest(method: request.method, url: request.url, headers: request.headers, body: request.body)
        switch responder.stubs.match(stubRequest, scenarios: responder.scenarios) {
        case .matched(let matched):
            return .answered(stubName: matched.stub.name)
        case .unmatched(let report):
            let bodyOnly = report.nearMisses.first { miss in
                miss.differences.allSatisfy { if case .body = $0 { true } else { false } }
            }
            if ignoringBody, let bodyOnly { return .answered(stubName: bodyOnly.stub.name) }
            return .unanswered(explanation: report.description)
        }
    }
}
