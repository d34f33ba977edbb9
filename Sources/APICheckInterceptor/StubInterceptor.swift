import APICheckModel
@_exported import APICheckResponder
import APICheckTemplates
import Foundation
import Logging
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serves a ``StubSet`` to the `URLSession`s made from its configurations, in-process.
///
/// The interceptor travels inside the `URLSessionConfiguration` it makes, so each stubbed session
/// has its own stubs, scenario selection, sequence positions and journal: tests running in
/// parallel never see each other's stubs, and nothing is registered globally.
///
/// ```swift
/// let interceptor = StubInterceptor(stubs: stubSet)
/// let session = interceptor.makeSession()              // hand this to the code under test
/// let (data, response) = try await session.data(from: URL(string: "http://localhost:3000/")!)
/// #expect(interceptor.journal.requests(path: "/").count == 1)
/// ```
///
/// Hermetic by default: a request no stub answers fails with a `URLError` whose description is the
/// near-miss report. With ``Options/passthrough`` such requests go to the real network instead
/// (with ``Options/bypassStubs``, every request does), and a ``PassthroughObserver`` sees each
/// answer: that is how the test helpers record (`APICheckTesting`'s `RecordMode`).
public final class StubInterceptor: Sendable {
    public struct Options: Sendable {
        /// Send requests no stub answers to the real network instead of failing them.
        public var passthrough: Bool
        /// Send every request to the real network without consulting the stubs (re-recording).
        /// The journal marks them passed through.
        public var bypassStubs: Bool
        /// Sees every whole answer the real network gave a request that passed through, before
        /// the client gets it (e.g. to write it as a stub file). Failed passthroughs are not seen.
        public var passthroughObserver: (any PassthroughObserver)?
        /// Follow 3xx responses that have a `Location` inside the stub set, as a real server's
        /// client would (at most ``maximumRedirects`` hops). When false the 3xx is delivered as is.
        public var followRedirects: Bool
        public var maximumRedirects: Int
        /// Request bodies (from `httpBody` or `httpBodyStream`) larger than this fail the request.
        public var maximumRequestBodyBytes: Int
        /// Body files larger than this fail the request instead of being read into memory.
        public var maximumBodyFileBytes: Int
        /// Latency stubs ask for is multiplied by this (0 turns it off, e.g. for fast unit tests).
        public var latencyScale: Double

        public init(
            passthrough: Bool = false, followRedirects: Bool = true, maximumRedirects: Int = 16,
            maximumRequestBodyBytes: Int = 64 << 20, maximumBodyFileBytes: Int = 256 << 20, latencyScale: Double = 1,
            bypassStubs: Bool = false, passthroughObserver: (any PassthroughObserver)? = nil
        ) {
            self.passthrough = passthrough
            self.bypassStubs = bypassStubs
            self.passthroughObserver = passthroughObserver
            self.followRedirects = followRedirects
            self.maximumRedirects = maximumRedirects
            self.maximumRequestBodyBytes = maximumRequestBodyBytes
            self.maximumBodyFileBytes = maximumBodyFileBytes
            self.latencyScale = latencyScale
        }
    }

    public let options: Options
    /// The stubs, scenario selection, sequence positions and journal this interceptor answers from.
    public let responder: StubResponder
    public var journal: StubJournal { responder.journal }
    let logger: Logger
    /// The protocol classes of this interceptor's configurations (`SessionBinding`).
    private let boundClasses = Mutex<[ObjectIdentifier]>([])
    /// The session passthrough requests go out on (`StubInterceptor+Passthrough.swift`).
    let realNetwork: URLSession?
    /// Why every request is refused, once set (``refuse(_:)``).
    private let refusal = Mutex<String?>(nil)
    /// The answers held back while their tasks wait (latency, passthrough), with their URLs.
    private let heldAnswers = Mutex<[ObjectIdentifier: (answer: HeldAnswer, url: URL?)]>([:])

    /// `gate`, when given, is asked before matching each request (``APICheckResponder/RequestGate``:
    /// an OpenAPI document's request checks, as `serve --openapi --validate-requests` has them).
    public init(
        stubs: StubSet, options: Options = Options(), templates: TemplateRenderer = TemplateRenderer(),
        logger: Logger = Logger(label: "apicheck.interceptor", factory: { _ in SwiftLogNoOpLogHandler() }), gate: (any RequestGate)? = nil
    ) {
        self.options = options
        self.responder = StubResponder(stubs: stubs, templates: templates, gate: gate)
        self.logger = logger
        self.realNetwork = options.passthrough || options.bypassStubs ? URLSession(configuration: .ephemeral) : nil
    }

    deinit {
        // Not invalidateAndCancel(): swift-corelibs-foundation's does workQueue.sync, and this deinit
        // can run on a URLSession's queue (a session's configuration holds its interceptor), where
        // that traps as a deadlock (measured: 6 runs in 20 of RecordModeTests). No passthrough is
        // in flight here: each holds the interceptor until it is done.
        realNetwork?.finishTasksAndInvalidate()
        SessionBinding.unbind(boundClasses.withLock { $0 })
    }

    // MARK: Sessions

    /// A copy of `base` whose requests this interceptor answers.
    public func configuration(_ base: URLSessionConfiguration = .ephemeral) -> URLSessionConfiguration {
        guard let configuration = base.copy() as? URLSessionConfiguration else { return base }
        let protocolClass = SessionBinding.bind(configuration, to: self)
        boundClasses.withLock { $0.append(ObjectIdentifier(protocolClass)) }
        // Another interceptor's class in the base would answer first: this one replaces it.
        configuration.protocolClasses = [protocolClass] + (base.protocolClasses ?? []).filter { !($0 is StubURLProtocol.Type) }
        var owners = configuration.connectionProxyDictionary ?? [:]
        owners[StubURLProtocol.ownerKey] = self
        configuration.connectionProxyDictionary = owners
        return configuration
    }

    /// A session whose requests this interceptor answers.
    public func makeSession(
        configuration base: URLSessionConfiguration = .ephemeral, delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: OperationQueue? = nil
    ) -> URLSession {
        URLSession(configuration: configuration(base), delegate: delegate, delegateQueue: delegateQueue)
    }

    // MARK: State

    /// The stubs being served.
    public var stubs: StubSet { responder.stubs }

    /// Serves `stubs` from now on; requests already being answered finish with the old set.
    public func replaceStubs(_ stubs: StubSet) { responder.replaceStubs(stubs) }

    /// The active scenario per use case.
    public var scenarios: ScenarioSelection { responder.scenarios }

    /// Makes `scenario` the answer of `useCase` (the folder `screen/use-case`), until changed.
    public func select(_ scenario: String, for useCase: String) { responder.select(scenario, for: useCase) }

    /// Lets every scenario of `useCase` compete again (the first in load order answers).
    public func clearSelection(for useCase: String) { responder.clearSelection(for: useCase) }

    /// Forgets the journal, sequence positions and scenario selections; the stubs stay.
    public func reset() { responder.reset() }

    /// From now on every request of this interceptor's sessions fails with `message`
    /// (`URLError(.unsupportedURL)`), and none reaches a stub or the network: a test scope that has
    /// ended, a session handed out outside any scope, a code stub whose route was invalid. The
    /// first reason given stays.
    package func refuse(_ message: String) {
        refusal.withLock { $0 = $0 ?? message }
    }

    /// Fails every answer still held back (a stub's latency, a passthrough fetch) with
    /// `URLError(.cancelled)` described by `message`, delivered at once by its own protocol: what
    /// a test scope does as it ends, instead of cancelling its session's tasks (see ``HeldAnswer``).
    package func cutShortHeldAnswers(_ message: String) {
        let held = heldAnswers.withLock { held in
            defer { held = [:] }
            return Array(held.values)
        }
        for (answer, url) in held { answer.cut(with: Self.cancelled(message, url)) }
    }

    /// Keeps `answer` for ``cutShortHeldAnswers(_:)``; once every request is refused (an ended
    /// scope), cuts it at once instead.
    func keep(_ answer: HeldAnswer, for url: URL?) {
        let refused = heldAnswers.withLock { held -> String? in
            // Read under the same lock as the cut's snapshot: a scope refuses before it cuts.
            if let refused = refusal.withLock({ $0 }) { return refused }
            held[ObjectIdentifier(answer)] = (answer, url)
            return nil
        }
        if let refused { answer.cut(with: Self.cancelled(refused, url)) }
    }

    func release(_ answer: HeldAnswer) {
        heldAnswers.withLock { $0[ObjectIdentifier(answer)] = nil }
    }

    private static func cancelled(_ message: String, _ url: URL?) -> Delivery {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        return Delivery(content: .failure(URLError(.cancelled, userInfo: info)), delay: 0)
    }

    // MARK: Answering

    /// What the protocol should do with a request.
    enum Resolution {
        case deliver(Delivery)
        /// Send to the real network: the request, with the body already read from it.
        case passthrough(URLRequest, body: Data)
    }

    struct Delivery {
        enum Content {
            case response(HTTPURLResponse, Data)
            case failure(any Error)
        }

        var content: Content
        /// Seconds to wait before delivering.
        var delay: Double
    }

    /// Delivers the responder's reply to `urlRequest`, following stubbed redirects as a client of
    /// a real server would (each hop is one reply, journaled once by the responder).
    func resolve(_ urlRequest: URLRequest, body: Data, cookieStorage: HTTPCookieStorage?) -> Resolution {
        guard var url = urlRequest.url else {
            return .deliver(Delivery(content: .failure(URLError(.badURL)), delay: 0))
        }
        if let refused = refusal.withLock({ $0 }) {
            return .deliver(Delivery(content: .failure(Self.error(.unsupportedURL, refused, url)), delay: 0))
        }
        var method = (urlRequest.httpMethod ?? "GET").uppercased()
        var headers = Self.headers(of: urlRequest)
        if options.bypassStubs {
            let request = StubRequest(method: method, url: url, headers: headers, body: body)
            responder.journal.record(JournalEntry(request: request, url: url, outcome: .passedThrough))
            return .passthrough(urlRequest, body: body)
        }
        var body = body
        var delay = 0.0
        var visited: Set<String> = []
        for hop in 0...max(options.maximumRedirects, 0) {
            let request = StubRequest(method: method, url: url, headers: headers, body: body)
            let replyOptions = ReplyOptions(
                unmatched: options.passthrough && hop == 0 ? .passThrough : .answer, readsBodyFiles: true,
                maximumBodyBytes: options.maximumBodyFileBytes
            )
            let reply = responder.reply(to: request, at: .url(url), options: replyOptions)
            delay += (reply.latency.request + reply.latency.response) * max(options.latencyScale, 0)
            switch reply.kind {
            case .passthrough:
                return .passthrough(urlRequest, body: body)
            case .unmatched, .exhausted, .unservable, .failure:
                if case .unmatched = reply.kind { logger.warning("no stub matches the request", metadata: ["request": "\(request.summary)"]) }
                if case .unservable(let problem) = reply.kind, let thrown = problem.thrown {
                    return .deliver(Delivery(content: .failure(thrown), delay: delay))  // what the code-first stub threw, as is
                }
                var error = Self.error(Self.errorCode(for: reply.kind), reply.explanation ?? "", url)
                if case .unmatched(let report) = reply.kind {
                    error = URLError(error.code, userInfo: error.userInfo.merging([URLError.nearMissReportKey: NearMissReportBox(report)]) { $1 })
                }
                return .deliver(Delivery(content: .failure(error), delay: delay))
            case .stubbed:
                break
            }
            logger.debug("stubbed", metadata: ["request": "\(request.summary)", "stub": "\(reply.matched?.stub.name ?? "")"])

            // A stubbed redirect: follow it like a client of a real server would.
            if options.followRedirects, [301, 302, 303, 307, 308].contains(reply.status), let location = reply.redirectLocation,
                let next = URL(string: location, relativeTo: url)?.absoluteURL
            {
                guard hop < options.maximumRedirects, visited.insert("\(method) \(next.absoluteString)").inserted else {
                    let message = hop < options.maximumRedirects ? "redirect loop at \(next.absoluteString)" : "more than \(options.maximumRedirects) redirects"
                    return .deliver(Delivery(content: .failure(Self.error(.httpTooManyRedirects, message, url)), delay: delay))
                }
                if reply.status == 303 || ([301, 302].contains(reply.status) && method == "POST") {
                    method = method == "HEAD" ? "HEAD" : "GET"
                    body = Data()
                    headers.removeAll { $0.name.caseInsensitiveEquals("Content-Type") || $0.name.caseInsensitiveEquals("Content-Length") }
                }
                store(reply.cookies, for: url, in: cookieStorage)
                url = next
                continue
            }

            let content: Data
            switch reply.body {
            case .bytes(let data):
                content = data
            case .file(let file):
                // Not produced with `readsBodyFiles`; read it here all the same rather than fail.
                do {
                    content = try file.contents(maximumBytes: options.maximumBodyFileBytes)
                } catch {
                    return .deliver(Delivery(content: .failure(Self.error(.fileDoesNotExist, error.message, url)), delay: delay))
                }
            }
            let http = Self.httpResponse(reply.head, url: url, contentLength: WireRules.contentLength(status: reply.status, bodyCount: content.count))
            store(reply.cookies, for: url, in: cookieStorage)
            return .deliver(Delivery(content: .response(http, reply.sendsBody ? content : Data()), delay: delay))
        }
        return .deliver(Delivery(content: .failure(URLError(.httpTooManyRedirects)), delay: delay))
    }

    /// The `URLError` code a reply that is not a stub response fails with (see ``StubReply``).
    static func errorCode(for kind: StubReply.Kind) -> URLError.Code {
        switch kind {
        case .failure(let failure): failure.urlErrorCode
        case .unservable(let problem):
            switch problem.reason {
            case .bodyFileMissing: .fileDoesNotExist
            case .bodyFileInvalid: .dataLengthExceedsMaximum
            case .templateFailed: .cannotDecodeContentData
            case .threw: .unknown
            }
        case .unmatched, .exhausted, .stubbed, .passthrough: .resourceUnavailable
        }
    }

    private func store(_ cookies: [StubCookie], for url: URL, in storage: HTTPCookieStorage?) {
        guard let storage, !cookies.isEmpty else { return }
        let fields = ["Set-Cookie": cookies.map(\.setCookieValue).joined(separator: ", ")]
        storage.setCookies(HTTPCookie.cookies(withResponseHeaderFields: fields, for: url), for: url, mainDocumentURL: nil)
    }

    // MARK: Helpers

    static func headers(of request: URLRequest) -> [HTTPHeader] {
        (request.allHTTPHeaderFields ?? [:])
            .sorted { $0.key < $1.key }
            .map { HTTPHeader(name: $0.key, value: $0.value) }
    }

    /// The reply's head as Foundation wants it (repeated fields combined), with the length every
    /// transport announces.
    static func httpResponse(_ head: ReplyHead, url: URL, contentLength: Int?) -> HTTPURLResponse {
        let status = head.status
        let headers = head.headers
        var fields: [String: String] = [:]
        fields.reserveCapacity(headers.count + 1)
        func add(_ name: String, _ value: String) {
            // RFC 9110 §5.3: repeated fields combine with ", " (Set-Cookie parsers handle it too).
            if let existing = fields.keys.first(where: { $0.caseInsensitiveEquals(name) }) {
                fields[existing] = fields[existing].map { "\($0), \(value)" } ?? value
            } else {
                fields[name] = value
            }
        }
        for header in headers { add(header.name, header.value) }
        if let contentLength { fields["Content-Length"] = String(contentLength) }
        return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
            ?? HTTPURLResponse(url: url, statusCode: 500, httpVersion: "HTTP/1.1", headerFields: [:])!
    }

    static func error(_ code: URLError.Code, _ description: String, _ url: URL) -> URLError {
        URLError(code, userInfo: [NSLocalizedDescriptionKey: description, NSURLErrorFailingURLErrorKey: url, "NSErrorFailingURLStringKey": url.absoluteString])
    }
}
