import APICheckJSON
import Foundation

/// What a stub answers.
public struct StubResponse: Sendable, Hashable {
    public var status: Int
    /// As written, in order. A `Content-Length` here is advisory: consumers send the real length.
    public var headers: [HTTPHeader]
    public var cookies: [StubCookie]
    public var body: StubBody
    public var latency: StubLatency
    /// When set, the stub answers with this transport failure instead of a response.
    public var failure: StubFailure?

    public init(
        status: Int = 200, headers: [HTTPHeader] = [], cookies: [StubCookie] = [], body: StubBody = .empty,
        latency: StubLatency = .none, failure: StubFailure? = nil
    ) {
        self.status = status
        self.headers = headers
        self.cookies = cookies
        self.body = body
        self.latency = latency
        self.failure = failure
    }

    /// The headers to send: as written but without `Content-Length`, then one `Set-Cookie` per cookie.
    /// Transports add the real `Content-Length` themselves.
    public var headersForSending: [HTTPHeader] {
        headers.filter { !$0.name.caseInsensitiveEquals("Content-Length") }
            + cookies.map { HTTPHeader(name: "Set-Cookie", value: $0.setCookieValue) }
    }
}

/// Where a stub's body comes from.
public enum StubBody: Sendable, Hashable {
    /// Bytes held in memory (inline text, serialised JSON, or nothing).
    case bytes(Data)
    /// A file read when the response is sent, so large files need not sit in memory.
    case file(StubFile)
    /// A Mustache template rendered per request.
    case template(StubTemplate)

    public static let empty = StubBody.bytes(Data())
}

/// A file a stub refers to, already resolved inside the stub root.
public struct StubFile: Sendable, Hashable {
    /// The path as the stub wrote it.
    public var declaredPath: String
    /// The resolved absolute file URL (inside the stub root, symlinks resolved).
    public var url: URL
    /// The size when the stub was loaded.
    public var byteCount: Int

    public init(declaredPath: String, url: URL, byteCount: Int) {
        self.declaredPath = declaredPath
        self.url = url
        self.byteCount = byteCount
    }
}

/// A reference to a response template and the variables the stub adds to its context.
public struct StubTemplate: Sendable, Hashable {
    public var file: StubFile
    /// Any JSON value: text, numbers, booleans for sections, objects and arrays for nested data.
    public var variables: [String: JSONValue]

    public init(file: StubFile, variables: [String: JSONValue] = [:]) {
        self.file = file
        self.variables = variables
    }
}

/// Delays before the response starts (`request`) and before it completes (`response`), in seconds.
public struct StubLatency: Sendable, Hashable {
    public var request: Double
    public var response: Double

    public init(request: Double = 0, response: Double = 0) {
        self.request = request
        self.response = response
    }

    public static let none = StubLatency()

    public var isZero: Bool { request == 0 && response == 0 }
}

/// A transport failure a stub simulates instead of answering.
///
/// The URLError-named codes apply in-process and over sockets; `connection-reset`,
/// `empty-response` and `malformed-response` describe socket behaviour of the stub server.
public enum StubFailure: String, Sendable, Hashable, CaseIterable {
    case timedOut
    case cannotConnectToHost
    case cannotFindHost
    case dnsLookupFailed
    case notConnectedToInternet
    case networkConnectionLost
    case badServerResponse
    case secureConnectionFailed
    case cancelled
    case connectionReset = "connection-reset"
    case emptyResponse = "empty-response"
    case malformedResponse = "malformed-response"
}

extension StubResponse {
    /// What a link-bearing header value (`Location`, `Content-Location`, `Link`) may contain to name
    /// the origin that serves the stub, as `{{baseURL}}` does in templates: recorded stubs use it so
    /// that their redirects and links work on any port and in-process.
    public static let baseURLPlaceholder = "{{baseURL}}"

    /// Headers whose values may contain ``baseURLPlaceholder``.
    public static let linkHeaderNames = ["Location", "Content-Location", "Link"]

    /// `headers` with ``baseURLPlaceholder`` in link-bearing values replaced by `baseURL`; the same
    /// array when there is none (the common case costs one scan of those values).
    public static func substitutingBaseURL(in headers: [HTTPHeader], with baseURL: String) -> [HTTPHeader] {
        guard headers.contains(where: isTemplatedLinkHeader) else { return headers }
        return headers.map { header in
            guard isTemplatedLinkHeader(header) else { return header }
            return HTTPHeader(name: header.name, value: header.value.replacingOccurrences(of: baseURLPlaceholder, with: baseURL))
        }
    }

    private static func isTemplatedLinkHeader(_ header: HTTPHeader) -> Bool {
        header.value.contains(baseURLPlaceholder) && linkHeaderNames.contains { $0.caseInsensitiveEquals(header.name) }
    }
}
