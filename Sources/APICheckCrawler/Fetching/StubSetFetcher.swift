import APICheckHypermedia
import APICheckModel
import APICheckResponder
import Foundation

/// Crawls a stub set in memory, no sockets: every request is answered by the same
/// ``StubResponder`` the interceptor and the server use (matching, scenarios, sequences,
/// templates with `baseURL` = the request's origin, body files read when sent).
///
/// It delivers the responder's ``StubReply`` as `apicheck serve` would put it on the wire: the same
/// status, the reply's head (``ReplyHead/headers``: the header lines the server writes, byte for
/// byte, without the `Server`, `Content-Length`, `Date` and `Connection` a socket adds), the same
/// body, the same 404 and 500 problem documents, no body for `HEAD`. Latency is not simulated (a
/// crawl wants answers, not waiting); failure stubs surface as ``FetchError``s the way a live
/// network failure would.
public struct StubSetFetcher: CrawlFetcher {
    public let responder: StubResponder

    public init(responder: StubResponder) {
        self.responder = responder
    }

    /// A fetcher of its own responder, with a journal (`responder.journal`) of the requests the
    /// crawl sent. `keepsJournal: false` keeps none: a large crawl whose requests nobody reads
    /// (`apicheck crawl --stubs`; the last 100,000 requests held 60 MB of a 100,000-resource crawl).
    public init(stubs: StubSet, scenarios: ScenarioSelection = [:], keepsJournal: Bool = true) {
        self.init(responder: StubResponder(stubs: stubs, scenarios: scenarios, journal: keepsJournal ? StubJournal() : .none))
    }

    public var isLive: Bool { false }

    public func fetch(_ request: FetchRequest, maximumBodyBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResponse {
        let stubRequest = StubRequest(method: request.method, url: request.url, headers: request.headers, body: request.body)
        // Files are checked, not read: like a client of `apicheck serve`, the crawl reads a
        // bounded prefix of what the server would stream.
        let reply = responder.reply(to: stubRequest, at: .url(request.url), options: ReplyOptions(readsBodyFiles: false))
        if case .failure(let failure) = reply.kind {
            throw FetchError(failure == .timedOut ? .timedOut : .connectionFailed, reply.explanation ?? failure.rawValue)
        }
        guard reply.sendsBody else { return FetchedResponse(status: reply.status, headers: reply.head.headers, body: Data()) }
        let body: Data
        switch reply.body {
        case .bytes(let data):
            body = data.count > maximumBodyBytes ? data.prefix(maximumBodyBytes) : data
        case .file(let file):
            do {
                body = try file.contents(maximumBytes: maximumBodyBytes, truncating: true)
            } catch {
                // The file changed after the responder checked it: what a server's reset looks like.
                throw FetchError(.connectionFailed, error.message)
            }
        }
        return FetchedResponse(status: reply.status, headers: reply.head.headers, body: body, isTruncated: reply.body.count > maximumBodyBytes)
    }

    /// Whether a stub answers `request`; `nil` when none does but a stub answers `OPTIONS` for
    /// its URL: the crawl then asks `OPTIONS`, as it would ask a live API without `--unsafe`.
    public func stubAnswers(_ request: FetchRequest, ignoringBody: Bool) -> StubAnswerCheck? {
        let stubRequest = StubRequest(method: request.method, url: request.url, headers: request.headers, body: request.body)
        switch responder.peek(stubRequest) {
        case .matched(let matched):
            return .answered(stubName: matched.stub.name)
        case .unmatched(let report):
            let bodyOnly = report.nearMisses.first { miss in
                miss.differences.allSatisfy { if case .body = $0 { true } else { false } }
            }
            if ignoringBody, let bodyOnly { return .answered(stubName: bodyOnly.stub.name) }
            // A stub answering OPTIONS there (a recording of a live crawl without --unsafe holds
            // the OPTIONS it asked, and no answer to the method): the crawl asks it, as it asks a
            // live API, and judges by its Allow. An in-memory crawl of a recording then reports
            // what the live crawl reported.
            if request.method != "OPTIONS", case .matched = responder.peek(StubRequest(
                    method: "OPTIONS", url: request.url, headers: request.headers.filter { !$0.name.caseInsensitiveEquals("Content-Type") }, body: Data()))
            {
                return nil
            }
            return .unanswered(explanation: report.description)
        }
    }
}
