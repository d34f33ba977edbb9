import APICheckJSON
import APICheckModel

/// An OpenAPI runtime expression (OpenAPI 3.0/3.1 §"Runtime Expressions"), the values Link
/// Objects pass to the operation they lead to:
///
/// ```
/// expression = "$url" / "$method" / "$statusCode"
///            / "$request." source / "$response." source
/// source     = "header." token / "query." name / "path." name / "body" ["#" json-pointer]
/// ```
///
/// ```swift
/// let id = try RuntimeExpression("$response.body#/id")
/// id.evaluate(in: context)   // .number("3")
/// ```
public enum RuntimeExpression: Sendable, Hashable, CustomStringConvertible {
    case url
    case method
    case statusCode
    case request(Source)
    case response(Source)

    /// Where in the request or response a value comes from.
    public enum Source: Sendable, Hashable {
        case header(String)
        case query(String)
        case path(String)
        /// A JSON pointer into the body (`""`: the whole body).
        case body(pointer: String)
    }

    /// Expressions longer than this are refused (a document is untrusted input).
    public static let maximumLength = 4096

    /// Parses `text`, which must be one whole expression.
    public init(_ text: String) throws(RuntimeExpressionError) {
        guard text.utf8.count <= Self.maximumLength else { throw .init("the expression is longer than \(Self.maximumLength) bytes") }
        switch text {
        case "$url": self = .url
        case "$method": self = .method
        case "$statusCode": self = .statusCode
        default:
            if text.hasPrefix("$request.") {
                self = .request(try Self.source(text.dropFirst("$request.".count), in: text))
            } else if text.hasPrefix("$response.") {
                self = .response(try Self.source(text.dropFirst("$response.".count), in: text))
            } else {
                throw .init("'\(text)' is not a runtime expression: expected $url, $method, $statusCode, $request.… or $response.…")
            }
        }
    }

    private static func source(_ rest: Substring, in text: String) throws(RuntimeExpressionError) -> Source {
        if rest.hasPrefix("header.") {
            let token = rest.dropFirst("header.".count)
            // RFC 7230 token: a header name.
            guard !token.isEmpty, token.utf8.allSatisfy(isTokenCharacter) else {
                throw .init("'\(text)': a header name is a token (letters, digits and !#$%&'*+-.^_`|~)")
            }
            return .header(String(token))
        }
        if rest.hasPrefix("query.") {
            let name = rest.dropFirst("query.".count)
            guard !name.isEmpty else { throw .init("'\(text)' names no query parameter") }
            return .query(String(name))
        }
        if rest.hasPrefix("path.") {
            let name = rest.dropFirst("path.".count)
            guard !name.isEmpty else { throw .init("'\(text)' names no path parameter") }
            return .path(String(name))
        }
        if rest == "body" { return .body(pointer: "") }
        if rest.hasPrefix("body#") {
            let pointer = String(rest.dropFirst("body#".count))
            guard pointer.isEmpty || pointer.hasPrefix("/") else { throw .init("'\(text)': the JSON pointer after # starts with /") }
            guard isValidPointer(pointer) else { throw .init("'\(text)': '~' in a JSON pointer is followed by 0 or 1") }
            return .body(pointer: pointer)
        }
        throw .init("'\(text)': expected header.NAME, query.NAME, path.NAME or body[#/pointer] after the dot")
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func isValidPointer(_ pointer: String) -> Bool {
        var bytes = pointer.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "~") {
                guard let next = bytes.next(), next == UInt8(ascii: "0") || next == UInt8(ascii: "1") else { return false }
            }
        }
        return true
    }

    /// The value in `context`; `nil` when the request or response has none there.
    public func evaluate(in context: RuntimeContext) -> JSONValue? {
        switch self {
        case .url: return .string(context.url)
        case .method: return .string(context.method)
        case .statusCode: return .number(String(context.statusCode))
        case .request(let source): return Self.value(source, headers: context.requestHeaders, query: context.requestQuery, path: context.requestPath, body: nil)
        case .response(let source): return Self.value(source, headers: context.responseHeaders, query: [:], path: [:], body: context.responseBody)
        }
    }

    private static func value(_ source: Source, headers: [HTTPHeader], query: [String: String], path: [String: String], body: JSONValue?) -> JSONValue? {
        switch source {
        case .header(let name): return headers.value(named: name).map(JSONValue.string)
        case .query(let name): return query[name].map(JSONValue.string)
        case .path(let name): return path[name].map(JSONValue.string)
        case .body(let pointer): return body?.value(at: pointer)
        }
    }

    public var description: String {
        func text(_ source: Source) -> String {
            switch source {
            case .header(let name): "header.\(name)"
            case .query(let name): "query.\(name)"
            case .path(let name): "path.\(name)"
            case .body(let pointer): pointer.isEmpty ? "body" : "body#\(pointer)"
            }
        }
        switch self {
        case .url: return "$url"
        case .method: return "$method"
        case .statusCode: return "$statusCode"
        case .request(let source): return "$request." + text(source)
        case .response(let source): return "$response." + text(source)
        }
    }
}

/// What a runtime expression is evaluated against: one exchange of the crawl.
public struct RuntimeContext: Sendable {
    /// The full URL of the request (`$url`).
    public var url: String
    public var method: String
    public var statusCode: Int
    public var requestHeaders: [HTTPHeader]
    public var requestQuery: [String: String]
    /// The request's path parameters, by the name its operation's template gives them.
    public var requestPath: [String: String]
    public var responseHeaders: [HTTPHeader]
    /// The response body, parsed; `nil` when it is not JSON.
    public var responseBody: JSONValue?

    public init(
        url: String, method: String, statusCode: Int, requestHeaders: [HTTPHeader] = [], requestQuery: [String: String] = [:],
        requestPath: [String: String] = [:], responseHeaders: [HTTPHeader] = [], responseBody: JSONValue? = nil
    ) {
        self.url = url
        self.method = method
        self.statusCode = statusCode
        self.requestHeaders = requestHeaders
        self.requestQuery = requestQuery
        self.requestPath = requestPath
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
    }
}

/// Why a runtime expression cannot be read.
public struct RuntimeExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// A Link Object's parameter value (or `requestBody`): a runtime expression, a constant, or a
/// string with expressions embedded in braces (`"{$response.body#/id}.json"`).
public enum LinkValue: Sendable, Hashable {
    case expression(RuntimeExpression)
    case constant(JSONValue)
    case embedded([Piece])

    public enum Piece: Sendable, Hashable {
        case text(String)
        case expression(RuntimeExpression)
    }

    /// Reads a value as a document writes it: a string starting with `$` is an expression, one
    /// with `{$…}` inside embeds expressions, anything else is a constant.
    public init(_ value: JSONValue) throws(RuntimeExpressionError) {
        guard case .string(let text) = value else {
            self = .constant(value)
            return
        }
        if text.hasPrefix("$") {
            self = .expression(try RuntimeExpression(text))
            return
        }
        guard text.contains("{$") else {
            self = .constant(value)
            return
        }
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{$") {
            if open.lowerBound > rest.startIndex { pieces.append(.text(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { throw .init("'\(text)': an embedded expression lacks its closing }") }
            pieces.append(.expression(try RuntimeExpression(String(rest[rest.index(after: open.lowerBound)..<close]))))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        self = .embedded(pieces)
    }

    /// The value as text for a URL (a string as is, a number as written, `true`/`false`);
    /// `nil` when an expression has no value or the value is an object, array or null.
    public func text(in context: RuntimeContext) -> String? {
        switch self {
        case .expression(let expression): return expression.evaluate(in: context).flatMap(Self.scalarText)
        case .constant(let value): return Self.scalarText(value)
        case .embedded(let pieces):
            var result = ""
            for piece in pieces {
                switch piece {
                case .text(let text): result += text
                case .expression(let expression):
                    guard let value = expression.evaluate(in: context).flatMap(Self.scalarText) else { return nil }
                    result += value
                }
            }
            return result
        }
    }

    static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let lexeme): lexeme
        case .bool(let flag): flag ? "true" : "false"
        case .null, .array, .object: nil
        }
    }
}
