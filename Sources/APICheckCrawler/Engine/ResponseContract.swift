import APICheckFindings
import APICheckHypermedia
import APICheckModel
import Foundation

/// A description of the API that every answer of a crawl is checked against (`--openapi`): the
/// crawler hands it each answer as it arrives and turns what it reports into findings, follows
/// the links it adds, and asks it at the end which of its operations no answer reached. The
/// engine knows no document format; `APICheckOpenAPI` provides one.
public protocol ResponseContract: Sendable {
    /// What is wrong with one answer; empty when it conforms. Called concurrently, once per
    /// fetched resource, so it must be cheap and must not block.
    func violations(of answer: ContractAnswer) -> [ContractViolation]

    /// Everything the contract says about one answer, from one match: its violations, the
    /// operation it reached (for coverage) and the links the description adds to it. Called
    /// concurrently, as ``violations(of:)``; by default, only the violations.
    func verdict(on answer: ContractAnswer) -> ContractVerdict

    /// Every operation the description has (``ContractVerdict/operation`` names one), in its
    /// order; empty (no coverage reported) by default.
    var operationNames: [String] { get }
}

extension ResponseContract {
    public func verdict(on answer: ContractAnswer) -> ContractVerdict {
        ContractVerdict(violations: violations(of: answer))
    }

    public var operationNames: [String] { [] }
}

/// What a contract says about one answer. The operation travels with the answer's record and
/// is folded into the crawl's coverage when the record is consumed, in order, so the concurrent
/// checks share nothing.
public struct ContractVerdict: Sendable {
    public var violations: [ContractViolation]
    /// The operation the answer reached (one of ``ResponseContract/operationNames``), `nil` when
    /// it reached none.
    public var operation: String?
    /// Links the description adds to the answer (OpenAPI Link Objects, path parameters filled
    /// from its body), followed like the answer's own; their ``Link/format`` says where they
    /// came from.
    public var links: [Link]

    public init(violations: [ContractViolation] = [], operation: String? = nil, links: [Link] = []) {
        self.violations = violations
        self.operation = operation
        self.links = links
    }
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
    /// The headers the crawl sent (`$request.header.…` in OpenAPI links).
    public var requestHeaders: [HTTPHeader]

    public init(
        method: String, url: URL, status: Int, headers: [HTTPHeader], body: [UInt8]?, isOnRootOrigin: Bool = true, requestHeaders: [HTTPHeader] = []
    ) {
        self.method = method
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
        self.isOnRootOrigin = isOnRootOrigin
        self.requestHeaders = requestHeaders
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
