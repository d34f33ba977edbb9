import APICheckCrawler
import APICheckHypermedia
import APICheckModel
import APICheckRecording
import APICheckVerifier
import Foundation

/// `crawl --record DIR`: the crawl's own fetcher, with every whole answer from the root's origin
/// written down as a stub file, so that `crawl --stubs DIR` replays the same crawl.
///
/// Answers are recorded as the crawl received them. What cannot be replayed faithfully is left
/// out and counted in the summary: bodies cut at `--max-body`, answers from other origins
/// (`--allow-host`), whose links `{{baseURL}}` cannot name, and 429/503 answers, which the crawl
/// retries (a recording of them would replay "busy" forever).
struct RecordingCrawlFetcher<Base: CrawlFetcher>: CrawlFetcher {
    let base: Base
    let recorder: StubRecorder
    /// The root's origin (`https://api.example.com`): it becomes `{{baseURL}}` in the stubs.
    let origin: String

    var isLive: Bool { base.isLive }

    func fetch(_ request: FetchRequest, maximumBodyBytes: Int, timeout: Duration) async throws(FetchError) -> FetchedResponse {
        let response = try await base.fetch(request, maximumBodyBytes: maximumBodyBytes, timeout: timeout)
        record(request, response)
        return response
    }

    func stubAnswers(_ request: FetchRequest, ignoringBody: Bool) -> StubAnswerCheck? {
        base.stubAnswers(request, ignoringBody: ignoringBody)
    }

    private func record(_ request: FetchRequest, _ response: FetchedResponse) {
        // The summary is printed: the query, where tokens travel, is left out of it.
        let target = "\(request.method) \(request.url.path(percentEncoded: true))\(request.url.query == nil ? "" : "?…")"
        guard OriginRewriter.origin(of: request.url) == origin else {
            return recorder.skip("\(target): another origin than the root's")
        }
        guard !response.isTruncated else {
            return recorder.skip("\(target): the body is longer than --max-body; raise it to record this answer")
        }
        // The crawl retries these (Retry-After): the answer worth keeping is the one after.
        guard response.status != 429, response.status != 503 else {
            return recorder.skip("\(target): answered \(response.status) (busy); the crawl retries it, and a busy answer is not recorded")
        }
        recorder.record(
            RecordedExchange(
                request: StubRequest(method: request.method, url: request.url, headers: request.headers, body: request.body),
                response: UpstreamResponse(status: response.status, headers: response.headers, body: response.body), upstream: origin))
    }
}
