import APICheckHypermedia
import APICheckModel
import Foundation

/// What one request does next after each answer: the redirect and retry rules of a crawl as a
/// pure value (no I/O, no clock), in the manner of AsyncHTTPClient's `RedirectState`. The crawler
/// sends, hands each answer to ``next(after:headers:remaining:)`` and does what it says.
///
/// Redirects are followed up to a limit, loop-checked by normalised URL and only inside the
/// crawl's scope; a 303 (and a 301/302 of a POST) becomes a GET without a body; the crawl's own
/// headers (credentials) are dropped on the way to an origin they were not given for. 429 and 503
/// are retried as `Retry-After` says, up to a limit.
struct RedirectState {
    enum Action: Equatable {
        /// The request's outcome is this answer (not a redirect, or one that is not followed).
        case answer(finalURL: URL)
        /// Wait, then send ``request`` again.
        case retry(after: Duration)
        /// Send ``request`` (now the redirect's target).
        case follow
        /// The request failed (a loop, too many redirects, a Location that is not a URL).
        case fail(String)
        /// Not followed on purpose (another origin).
        case skip(String)
    }

    /// What to send next.
    private(set) var request: FetchRequest
    private let maximumRedirects: Int
    private let maximumRetries: Int
    private let maximumRetryDelay: Duration
    private let isInScope: (URL) -> Bool
    private let hasCredentials: (URL) -> Bool
    /// The names of the crawl's own headers, lower-cased.
    private let crawlHeaders: Set<String>
    private let redact: (String) -> String
    private var visited: Set<String>
    private var redirects = 0
    private var retries = 0

    init(
        request: FetchRequest, maximumRedirects: Int, maximumRetries: Int, maximumRetryDelay: Duration, crawlHeaders: [String],
        isInScope: @escaping (URL) -> Bool, hasCredentials: @escaping (URL) -> Bool, redact: @escaping (String) -> String = { $0 }
    ) {
        self.request = request
        self.maximumRedirects = maximumRedirects
        self.maximumRetries = maximumRetries
        self.maximumRetryDelay = maximumRetryDelay
        self.crawlHeaders = Set(crawlHeaders.map { $0.lowercased() })
        self.isInScope = isInScope
        self.hasCredentials = hasCredentials
        self.redact = redact
        visited = [URLResolution.normalisedKey(request.url.absoluteString)]
    }

    /// The next step after an answer with `status` and `headers` to ``request``. `remaining`:
    /// the time left before the crawl's deadline (a retry that would outlast it is not made).
    mutating func next(after status: Int, headers: [HTTPHeader], remaining: Duration) -> Action {
        if status == 429 || status == 503, retries < maximumRetries {
            retries += 1
            let delay = min(Self.retryDelay(headers.value(named: "Retry-After"), attempt: retries), maximumRetryDelay)
            return delay < remaining ? .retry(after: delay) : .answer(finalURL: request.url)
        }
        guard [301, 302, 303, 307, 308].contains(status), let location = headers.value(named: "Location") else {
            return .answer(finalURL: request.url)
        }
        guard let next = URLResolution.resolve(location, against: request.url.absoluteString).flatMap(URL.init(string:)) else {
            return .fail("the redirect's Location '\(location)' is not a URL")
        }
        redirects += 1
        guard redirects <= maximumRedirects else { return .fail("more than \(maximumRedirects) redirects (--max-redirects)") }
        guard visited.insert(URLResolution.normalisedKey(next.absoluteString)).inserted else {
            return .fail("a redirect loop at \(redact(next.absoluteString))")
        }
        guard isInScope(next) else { return .skip("redirects to another origin (\(redact(next.absoluteString)))") }
        if status == 303 || ([301, 302].contains(status) && request.method == "POST") {
            request.method = "GET"
            request.body = Data()
        }
        // Credentials go to the origins they were given for, never where a redirect points.
        if !hasCredentials(next) {
            request.headers.removeAll { crawlHeaders.contains($0.name.lowercased()) }
        }
        request.url = next
        return .follow
    }

    /// `Retry-After` as seconds or an HTTP date; without one, exponential back-off from 0.5 s.
    static func retryDelay(_ value: String?, attempt: Int) -> Duration {
        if let value = value?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
            if let date = HTTPDate.parse(value) {
                let seconds = max(0, date.timeIntervalSinceNow)
                return .milliseconds(Int64(seconds * 1000))
            }
        }
        return .milliseconds(500 << min(attempt - 1, 6))
    }
}
