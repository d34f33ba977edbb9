import APICheckJSON
import APICheckModel
import Foundation

/// The whole answer to one request, decided once by ``StubResponder`` for every transport.
///
/// The interceptor, the stub server and the crawler's in-memory fetcher only *deliver* a reply
/// (as a `URLResponse`, as bytes on a socket, as a `FetchedResponse`); none of them decides a
/// status, a header, a body or a journal entry of its own, so they cannot disagree. What each kind
/// becomes on each transport is documented in `docs/stub-files.md` ("One answer"):
///
/// | kind | over HTTP (server, in-memory crawl) | in-process (interceptor) |
/// |---|---|---|
/// | ``Kind/stubbed`` | the stub's response | the same response |
/// | ``Kind/failure(_:)`` | the socket behaviour | the `URLError` |
/// | ``Kind/unmatched(_:)``, ``Kind/exhausted`` | 404 `application/problem+json` | a `URLError` (`.resourceUnavailable`) with the same explanation |
/// | ``Kind/unservable(_:)`` | 500 `application/problem+json` | a `URLError` (by ``Unservable/Reason``) with the same explanation |
/// | ``Kind/passthrough`` | sent upstream | sent to the network |
///
/// In-process, what is not a stub's own response is an error, never a response the code under test
/// could mistake for the API's; over HTTP a problem document is the only way to say it.
public struct StubReply: Sendable {
    /// What kind of answer this is.
    public enum Kind: Sendable {
        /// A stub answers with its response (the next of its sequence, if it has one).
        case stubbed
        /// A stub simulates this transport failure instead of answering.
        case failure(StubFailure)
        /// No stub matched; the report says which came closest and why.
        case unmatched(NearMissReport)
        /// The stub's sequence is spent and set to answer no more: it answers as if unmatched.
        case exhausted
        /// The stub matched but its body cannot be produced (a body file is gone or over the
        /// limit, a template does not render): a 500 problem document says why.
        case unservable(Unservable)
        /// No stub matched and the caller asked for unmatched requests to go elsewhere (the real
        /// network, an upstream).
        case passthrough
    }

    /// Where the body comes from.
    public enum Body: Sendable {
        /// In memory: inline bytes, a rendered template, a problem document, or a file read by the
        /// responder because the caller asked for bytes.
        case bytes(Data)
        /// A regular file, checked when the reply was made (its size then in `byteCount`), for a
        /// transport that streams it. Reading it may still fail if it changes meanwhile.
        case file(StubFile)

        /// The body's length in bytes.
        public var count: Int {
            switch self {
            case .bytes(let data): data.count
            case .file(let file): file.byteCount
            }
        }
    }

    public var kind: Kind
    /// The stub that matched (for every kind but unmatched and passthrough).
    public var matched: MatchedStub?
    /// The status and final headers every transport delivers, computed once per stub response by
    /// the ``ServedStubs`` (a problem document's for anything that is not a stub's response).
    public let head: ReplyHead
    /// The body source. For `HEAD` and bodiless statuses it is still the full body, so that its
    /// length can be announced; ``sendsBody`` says whether to send it.
    public var body: Body
    /// Seconds before the head (`request`) and before the body (`response`), unscaled.
    public var latency: StubLatency
    /// Whether the body is sent: not for `HEAD`, 1xx, 204 or 304 (``WireRules/allowsBody(_:)``).
    public let sendsBody: Bool
    /// The stub's response this reply delivers, when a stub answers with its own response.
    public let stubResponse: StubResponse?

    init(kind: Kind, matched: MatchedStub?, response: StubResponse, head: ReplyHead, body: Body, method: String) {
        self.kind = kind
        self.matched = matched
        self.head = head
        self.body = body
        self.latency = response.latency
        self.stubResponse = response
        self.sendsBody = method != "HEAD" && WireRules.allowsBody(head.status)
    }

    init(kind: Kind, matched: MatchedStub?, head: ReplyHead, body: Data, latency: StubLatency = .none, method: String) {
        self.kind = kind
        self.matched = matched
        self.head = head
        self.body = .bytes(body)
        self.latency = latency
        self.stubResponse = nil
        self.sendsBody = method != "HEAD" && WireRules.allowsBody(head.status)
    }

    public var status: Int { head.status }

    /// The headers to send, final (``ReplyHead/headers``).
    public var headers: [HTTPHeader] { head.headers }

    /// The `Content-Length` every transport announces: the body's length, also for `HEAD`; none
    /// for 1xx and 204; 0 for 304.
    public var contentLength: Int? { WireRules.contentLength(status: status, bodyCount: body.count) }

    /// The stub's cookies, for an in-process client's cookie storage (they are in ``headers`` too).
    public var cookies: [StubCookie] { stubResponse?.cookies ?? [] }

    /// The `Location` of a stub's 3xx, which an in-process client follows as a real one would.
    public var redirectLocation: String? {
        guard (300..<400).contains(status), stubResponse != nil else { return nil }
        return head.headers.value(named: "Location")
    }

    /// One sentence saying why there is no stub response (unmatched, exhausted, unservable,
    /// failure); `nil` for a stubbed or passed-through request.
    public var explanation: String? {
        switch kind {
        case .stubbed, .passthrough: return nil
        case .unmatched(let report): return report.description
        case .exhausted: return matched.map(Self.exhaustedMessage) ?? "the stub's sequence is exhausted"
        case .unservable(let problem): return problem.message
        case .failure(let failure):
            guard let stub = matched?.stub else { return "the stub simulates \(failure.rawValue)" }
            return "stub \"\(stub.name)\" (\(stub.source)) simulates \(failure.rawValue)"
        }
    }

    /// The journal outcome of this reply.
    var outcome: JournalEntry.Outcome {
        switch kind {
        case .stubbed, .failure:
            guard let matched else { return .failed("no stub") }
            let failure: StubFailure? = if case .failure(let failure) = kind { failure } else { nil }
            return .stubbed(stubID: matched.stub.id, stubName: matched.stub.name, status: status, failure: failure)
        case .unmatched(let report): return .unmatched(report)
        case .passthrough: return .passedThrough
        case .exhausted, .unservable: return .failed(explanation ?? "")
        }
    }

    /// The sentence every transport reports for an exhausted sequence.
    public static func exhaustedMessage(_ matched: MatchedStub) -> String {
        "the sequence of stub \"\(matched.stub.name)\" (\(matched.stub.source)) is exhausted and set to fail after its last response"
    }

}

/// Why a matched stub cannot be served.
public struct Unservable: Error, Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// The body file is gone or unreadable.
        case bodyFileMissing
        /// The body file is not a regular file, or is over the size limit.
        case bodyFileInvalid
        /// The template does not compile or render, or renders more than the limit.
        case templateFailed
        /// A stub written in code threw instead of answering (``Unservable/thrown`` is the error).
        case threw
    }

    public var reason: Reason
    /// One sentence naming the stub, its source and the cause.
    public var message: String
    /// What a code-first stub threw: in-process it is the error the client gets, as is.
    public var thrown: (any Error)?

    public init(reason: Reason, message: String, thrown: (any Error)? = nil) {
        self.reason = reason
        self.message = message
        self.thrown = thrown
    }

    public static func == (lhs: Unservable, rhs: Unservable) -> Bool { lhs.reason == rhs.reason && lhs.message == rhs.message }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(reason)
        hasher.combine(message)
    }
}

// MARK: Problem documents

extension StubReply {
    /// The headers of every problem document a responder or transport answers with.
    public static let problemHeaders = [
        HTTPHeader(name: "Content-Type", value: "application/problem+json"), HTTPHeader(name: "Cache-Control", value: "no-store"),
    ]

    /// An RFC 9457 `application/problem+json` document, pretty-printed: the one format of every
    /// error a stub transport answers itself (no stub, a spent sequence, a broken stub, a rejected
    /// request, the admin API's errors).
    public static func problemDocument(status: Int, title: String, detail: String, extra: [JSONMember] = []) -> Data {
        Data(JSONWriter(style: .pretty).bytes(problem(status: status, title: title, detail: detail, extra: extra)))
    }

    /// ``problemDocument(status:title:detail:extra:)`` as a value, for answers that add members.
    public static func problem(status: Int, title: String, detail: String, extra: [JSONMember] = []) -> JSONValue {
        let members: [JSONMember] = [
            JSONMember("type", "about:blank"), JSONMember("title", .string(title)), JSONMember("status", .number(String(status))),
            JSONMember("detail", .string(detail)),
        ]
        return .object(members + extra)
    }

    /// The 404 for a request no stub answers: the near-miss report as `detail`, and each near
    /// miss with its reasons.
    public static func unmatchedDocument(_ report: NearMissReport) -> Data {
        problemDocument(
            status: 404, title: "No stub matches the request", detail: report.description,
            extra: [
                JSONMember("request", .string(report.request.summary)),
                JSONMember(
                    "nearMisses",
                    .array(report.nearMisses.map { miss in
                        .object([
                            JSONMember("stub", .string(miss.stub.name)), JSONMember("id", .string(miss.stub.id)),
                            JSONMember("source", .string(miss.stub.source.description)),
                            JSONMember("differences", .array(miss.differences.map { .string($0.description) })),
                        ])
                    })
                ),
            ]
        )
    }
}
