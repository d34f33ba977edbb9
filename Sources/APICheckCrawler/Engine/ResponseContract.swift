import APICheckFindings
import APICheckModel
import Foundation

/// A description of the API that every answer of a crawl is checked against (`--openapi`): the
/// crawler hands it each answer as it arrives and turns what it reports into findings. The
/// engine knows no document format; `APICheckOpenAPI` provides one.
public protocol ResponseContract: Sendable {
    /// What is wrong with one answer; empty when it conforms. Called concurrently, once per
    /// fetched resource, so it must be cheap and must not block.
    func violations(of answer: ContractAnswer) -> [ContractViolation]
}

/// One answer the crawl received, as a contract sees it.
public struct ContractAnswer: Sendable {
    public var method: String
    /// The URL that answered (after redirects).
    public var url: URL
    public var status: Int
    public var headers: [HTTPHeader]
    /// The body, `nil` when it was cut at `--max-body` (not checked then).
    public var body: [UInt8]?
    /// Whether the answer came from the crawl root's origin (not from an `--allow-host`).
    public var isOnRootOrigin: Bool

    public init(method: String, url: URL, status: Int, headers: [HTTPHeader], body: [UInt8]?, isOnRootOrigin: Bool = true) {
        self.method = method
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.isOnRootOrigin = isOnRootOrigin
    }

    /// The value of the first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? { headers.value(named: name) }
}

/// One way an answer breaks its contract.
public struct ContractViolation: Sendable, Hashable {
    /// One of the contract rules (`openapi-*`).
    public var rule: RuleID
    /// What the contract allows, starting with the operation (`GET /movies/{id}: 200 or 404`):
    /// findings group into defects by it.
    public var expected: String?
    public var actual: String?
    /// Where in the body, a JSON pointer (body violations only).
    public var pointer: String?
    public var message: String

    public init(rule: RuleID, expected: String?, actual: String?, pointer: String? = nil, message: String) {
        self.rule = rule
        self.expected = expected
        self.actual = actual
        self.pointer = pointer
        self.message = message
    }
}
