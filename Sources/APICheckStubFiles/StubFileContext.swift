import APICheckModel
import Foundation

/// What decoding one stub file needs and produces: its location for messages, the root for
/// file references, and the diagnostics found so far. Both decoders (XML, JSON) build stubs
/// through the checks here, so the two formats cannot drift apart.
package struct StubFileContext {
    let displayPath: String
    /// The real folder of the stub file, for relative `body-file` paths.
    let folder: String
    let root: StubRoot
    let options: StubLoadOptions
    package private(set) var diagnostics: [Diagnostic] = []
    /// Real paths of files the stubs refer to (bodies, templates): these are assets, not stubs.
    private(set) var references: [String] = []
    /// Shared with the other files the same thread decodes.
    let repeatedStrings: RepeatedStrings

    package init(
        displayPath: String, folder: String, root: StubRoot, options: StubLoadOptions, repeatedStrings: RepeatedStrings = RepeatedStrings()
    ) {
        self.displayPath = displayPath
        self.folder = folder
        self.root = root
        self.options = options
        self.repeatedStrings = repeatedStrings
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    var errorCount: Int { diagnostics.reduce(0) { $0 + ($1.severity == .error ? 1 : 0) } }

    func location(_ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(path: displayPath, line: line, column: column)
    }

    mutating func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }

    mutating func warning(_ message: String, at location: SourceLocation, code: Diagnostic.Code? = nil) {
        diagnostics.append(Diagnostic(.warning, message, at: location, code: code))
    }

    /// A name the format does not know (`what`: "attribute request-methd on <annotation>"),
    /// with the closest known one when it looks like a typo. A warning (the stub still loads);
    /// `lint --strict` and the test helpers treat it as an error.
    mutating func unknown(_ what: String, name: String, known: some Sequence<String>, quote: (String) -> String = { $0 }, at location: SourceLocation) {
        let known = Array(known).sorted()
        var hint = Suggestion.didYouMean(name, in: known, quote: quote)
        if hint.isEmpty { hint = known.isEmpty ? " (none are allowed here)" : " (known: \(known.map(quote).joined(separator: ", ")))" }
        warning("unknown \(what) is ignored" + hint, at: location, code: .unknownName)
    }

    // MARK: Checks shared by both formats

    mutating func status(_ value: Int?, text: String, at location: SourceLocation) -> Int? {
        guard let value, (100...599).contains(value) else {
            error("status \"\(text)\" is not an HTTP status code (100-599)", at: location)
            return nil
        }
        return value
    }

    mutating func method(_ text: String, at location: SourceLocation) -> String? {
        let method = text.trimmedASCIIWhitespace
        guard !method.isEmpty, method.utf8.allSatisfy(Self.isTokenByte) else {
            error("\"\(text)\" is not an HTTP method", at: location)
            return nil
        }
        if method == "*" || method.uppercased() == "ANY" { return "*" }
        return method.uppercased()
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// A path pattern, with any `?name=value` part turned into query constraints.
    mutating func path(_ text: String, at location: SourceLocation) -> (PathPattern, [ValueConstraint])? {
        switch PathPattern.parseWithQuery(text.trimmedASCIIWhitespace) {
        case .success(let parsed): return (parsed.path, parsed.query)
        case .failure(let reason):
            error("invalid path: \(reason)", at: location)
            return nil
        }
    }

    /// A stub's example request target (`/orders/42?page=1`): absolute-path form, and one the
    /// stub's own path answers, so `verify` never sends a request its stub would not match.
    mutating func example(_ text: String, for path: PathPattern?, at location: SourceLocation) -> String? {
        let target = text.trimmedASCIIWhitespace
        guard target.hasPrefix("/"), !target.contains(where: { $0 == " " || $0 == "#" }), let url = URL(string: "http://example.invalid" + target) else {
            error("example \"\(text)\" is not a request target such as /orders/42?page=1", at: location)
            return nil
        }
        if let path, !path.matches(path: url.path(percentEncoded: false)) {
            error("example \"\(text)\" is not matched by the stub's path \(path.text); give a request this stub answers", at: location)
            return nil
        }
        return target
    }

    mutating func failure(_ text: String, at location: SourceLocation) -> StubFailure? {
        guard let failure = StubFailure(rawValue: text) else {
            let known = StubFailure.allCases.map(\.rawValue).joined(separator: ", ")
            error("unknown failure code \"\(text)\"; use one of: \(known)", at: location)
            return nil
        }
        return failure
    }

    /// Seconds of latency: finite, not negative, at most an hour.
    mutating func seconds(_ value: Double?, text: String, name: String, at location: SourceLocation) -> Double? {
        guard let value, value.isFinite, value >= 0, value <= 3600 else {
            error("\(name) latency \"\(text)\" must be a number of seconds from 0 to 3600", at: location)
            return nil
        }
        return value
    }

    mutating func cookieExpiry(_ text: String, at location: SourceLocation) -> Date? {
        guard let date = HTTPDate.parse(text) else {
            warning("cookie expiry \"\(text)\" is not a date like \"Sat, 16-Nov-2013 15:00:00 GMT\"; the cookie is sent without it", at: location)
            return nil
        }
        return date
    }

    mutating func file(_ declared: String, at location: SourceLocation) -> StubFile? {
        switch root.resolve(declared, from: folder, maximumBytes: options.maximumBodyFileBytes) {
        case .success(let file):
            references.append(file.url.path)
            return file
        case .failure(let reason):
            error(reason.message, at: location)
            return nil
        }
    }

    /// A stub's own `Content-Length` is advisory; say so when it disagrees with the body.
    mutating func checkContentLength(_ response: StubResponse, at location: SourceLocation) {
        guard let declared = response.headers.value(named: "Content-Length") else { return }
        let actual: Int?
        switch response.body {
        case .bytes(let data): actual = data.count
        case .file(let file): actual = file.byteCount
        case .template: actual = nil
        }
        guard let actual else { return }
        if Int(declared.trimmedASCIIWhitespace) != actual {
            warning("Content-Length \(declared) does not match the body (\(actual) bytes); the real length is sent", at: location)
        }
    }

    func stubID(index: Int) -> String { "\(displayPath)#\(index)" }
}

/// Header values repeat across the files of a stub set (`application/hal+json` in each of
/// 100,000 generated files): the files one thread decodes share one copy of each, instead of a
/// heap string per stub (6 MB of such a set). Not thread-safe: one per batch of files a thread
/// decodes.
package final class RepeatedStrings {
    private var known: Set<String> = []
    /// Bounded: a set whose values are all different stops sharing, not growing.
    private static let limit = 4096

    package init() {}

    /// `string`, or one with the same bytes seen before. Strings of up to 15 UTF-8 bytes are
    /// stored inline (nothing to share) and long ones rarely repeat. ASCII only: `String`
    /// equality is Unicode's canonical equivalence, under which `café` spelt with a combining
    /// accent equals `café` with a precomposed one, yet a stub must send the bytes its file has.
    func shared(_ string: String) -> String {
        let utf8 = string.utf8
        guard utf8.count > 15, utf8.count <= 256, utf8.allSatisfy({ $0 < 0x80 }) else { return string }
        if known.count < Self.limit { return known.insert(string).memberAfterInsert }
        return known.firstIndex(of: string).map { known[$0] } ?? string
    }
}
