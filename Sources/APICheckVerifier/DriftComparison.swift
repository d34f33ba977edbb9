import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckJSON
import APICheckModel
import Foundation

/// What `apicheck verify` compares beyond status, type, links and shape.
public struct DriftOptions: Sendable, Hashable {
    /// Compare JSON leaf values too (`--compare-values`), at concrete pointers (`/items/0/name`).
    public var compareValues: Bool
    /// RFC 6901 pointers not compared (`--ignore`); a segment `*` matches any one key or index,
    /// and a pattern also ignores everything below it. Links written under an ignored pointer
    /// are not compared either. See ``problem(inIgnorePattern:)``.
    public var ignoredPointers: [String]
    /// Headers whose values are compared (`--compare-header`), names case-insensitive.
    public var comparedHeaders: [String]

    /// Options; by default only status, type, links and JSON shape are compared.
    public init(compareValues: Bool = false, ignoredPointers: [String] = [], comparedHeaders: [String] = []) {
        self.compareValues = compareValues
        self.ignoredPointers = ignoredPointers
        self.comparedHeaders = comparedHeaders
    }

    /// Why `pattern` is not a usable `--ignore` pointer, or `nil` when it is: it must be empty
    /// (the whole body) or start with `/`, and `~` must be followed by `0` or `1`.
    public static func problem(inIgnorePattern pattern: String) -> String? {
        PointerPattern(pattern) == nil ? "'\(pattern.excerpt(200))' is not a JSON pointer: write it as /key/0/key, with * for any key or index" : nil
    }
}

/// One difference between what a stub answers and what the live API answers to the same request.
public struct Drift: Sendable, Hashable, CustomStringConvertible {
    /// One of the drift rules (`drift-status`, `drift-type`, `drift-links`, `drift-shape`,
    /// `drift-header`).
    public var rule: RuleID
    /// One sentence stating the problem: `the stub answers 200, the live API 404 (client error)`.
    public var message: String
    /// What the stub says, short.
    public var expected: String?
    /// What the live API says, short.
    public var actual: String?
    /// The JSON pointer (`drift-shape`), the rel (`drift-links`) or the header name
    /// (`drift-header`), when it applies.
    public var pointer: String?
    /// Set when the drift is not a difference but a comparison that could not be made (a body
    /// over `--max-body`): a warning, so that a limit never passes silently.
    public var severity: Severity?

    /// A drift.
    public init(rule: RuleID, message: String, expected: String? = nil, actual: String? = nil, pointer: String? = nil, severity: Severity? = nil) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.expected = expected
        self.actual = actual
        self.pointer = pointer
    }

    /// `drift-shape: /price was number, is now string`.
    public var description: String { "\(rule): \(message)" }
}

/// Compares a stub's response with the live API's answer to the same request: a pure function,
/// tested without any fetching.
///
/// ```swift
/// let drifts = DriftComparison.compare(
///     expected: stubResponse, live: liveResponse, url: "https://api.example.com/products/1",
///     method: "GET", options: DriftOptions(ignoredPointers: ["/updatedAt"]))
/// for drift in drifts { … drift.rule, drift.message … }
/// ```
///
/// Drifts come in rule order (status, type, links, shape, headers), each rule's sorted. Only
/// differences a client would notice are drift: hrefs, charsets and JSON values (unless
/// ``DriftOptions/compareValues``) legitimately differ between a recording and the live API.
public enum DriftComparison {
    /// Bodies larger than this are not shape-compared: parsing and walking them twice would cost
    /// more than a verify run should, and no real API representation is that large.
    public static let maximumShapeBodyBytes = 8 << 20

    /// The differences between `expected` (the stub's response) and `live`, for the request
    /// `method url` (`url` is the base of both sides' links).
    ///
    /// Body comparisons (links, shape) are skipped when either body was truncated or the method
    /// is `HEAD`; type, links and shape are skipped when the status classes differ, since a 404
    /// page is not a changed product and comparing it would bury the one drift that matters.
    public static func compare(
        expected: FetchedResponse, live: FetchedResponse, url: String, method: String, options: DriftOptions,
        extractor: LinkExtractor = LinkExtractor()
    ) -> [Drift] {
        var drifts: [Drift] = []
        if let drift = statusDrift(expected.status, live.status) { drifts.append(drift) }
        let sameClass = expected.status / 100 == live.status / 100
        if sameClass {
            if let drift = typeDrift(expected.headers.value(named: "Content-Type"), live.headers.value(named: "Content-Type")) {
                drifts.append(drift)
            }
            let comparesBodies = !expected.isTruncated && !live.isTruncated && !method.caseInsensitiveEquals("HEAD")
            if comparesBodies {
                drifts += bodyDrifts(expected, live, url: url, options: options, extractor: extractor)
            } else if live.isTruncated || expected.isTruncated {
                let side = live.isTruncated ? "the live body" : "the stub's body"
                drifts.append(Drift(
                    rule: .driftShape, message: "\(side) is larger than --max-body (\((live.isTruncated ? live : expected).body.count) bytes read): its links and shape were not compared; raise --max-body", severity: .warning))
            }
        }
        drifts += headerDrifts(expected.headers, live.headers, names: options.comparedHeaders)
        return drifts
    }

    /// Links, then shape.
    private static func bodyDrifts(
        _ expected: FetchedResponse, _ live: FetchedResponse, url: String, options: DriftOptions, extractor: LinkExtractor
    ) -> [Drift] {
        let ignored = PointerPatterns(options.ignoredPointers.compactMap(PointerPattern.init))
        let expectedLinks = extractor.extract(url: url, headers: expected.headers, body: Array(expected.body))
        let liveLinks = extractor.extract(url: url, headers: live.headers, body: Array(live.body))
        // Link objects are compared by drift-links in its own terms (hrefs not at all), on either
        // side: the shape leaves them out, so that one changed rel is one drift.
        var notShape = ignored
        for link in expectedLinks.links + liveLinks.links where link.source.kind == .jsonPointer {
            // A link written as the whole document would take the whole shape with it.
            if let pattern = PointerPattern(link.source.path), !pattern.tokens.isEmpty { notShape.insert(pattern.withIndicesAsWildcards) }
        }
        let expectedJSON = parsedJSON(expected.body).map { JSONBody($0, ignoring: notShape) }
        let liveJSON = parsedJSON(live.body).map { JSONBody($0, ignoring: notShape) }
        var drifts = LinkDrift.compare(
            expected: expectedLinks, live: liveLinks, expectedJSON: expectedJSON, liveJSON: liveJSON, ignoring: ignored)
        if let expectedJSON, let liveJSON {
            drifts += JSONShape.drifts(expected: expectedJSON, live: liveJSON, ignoring: notShape, comparingValues: options.compareValues)
        } else if expectedJSON != nil, declaresJSON(expected), !live.body.isEmpty, live.body.count <= maximumShapeBodyBytes {
            // The stub's clients decode JSON; a live body that no longer parses breaks every one.
            let reason: String
            do {
                _ = try JSONParser().parseValue(Array(live.body))
                reason = "it does not parse"
            } catch {
                reason = "\(error)"
            }
            drifts.append(Drift(rule: .driftShape, message: "the stub's body is JSON, the live body is not: \(reason)", pointer: ""))
        }
        return drifts
    }

    /// Whether the response says its body is JSON (`application/json`, `…+json`).
    private static func declaresJSON(_ response: FetchedResponse) -> Bool {
        guard let type = response.headers.value(named: "Content-Type").flatMap({ try? MediaType(parsing: $0) }) else { return false }
        return type.isJSON
    }

    /// The body as JSON, or `nil` when it is not JSON or too large to compare.
    private static func parsedJSON(_ body: Data) -> JSONValue? {
        guard !body.isEmpty, body.count <= maximumShapeBodyBytes else { return nil }
        return try? JSONParser().parseValue(Array(body))
    }

    // MARK: Status

    static func statusDrift(_ expected: Int, _ live: Int) -> Drift? {
        guard expected != live else { return nil }
        let expectedClass = statusClass(expected)
        let liveClass = statusClass(live)
        let detail = expectedClass == liveClass ? "both \(liveClass)" : liveClass
        return Drift(
            rule: .driftStatus, message: "the stub answers \(expected), the live API \(live) (\(detail))",
            expected: String(expected), actual: String(live))
    }

    private static func statusClass(_ status: Int) -> String {
        switch status {
        case 100..<200: "informational"
        case 200..<300: "success"
        case 300..<400: "redirection"
        case 400..<500: "client error"
        case 500..<600: "server error"
        default: "not a valid status"
        }
    }

    // MARK: Content-Type

    static func typeDrift(_ expected: String?, _ live: String?) -> Drift? {
        let stub = expected?.trimmedASCIIWhitespace
        let served = live?.trimmedASCIIWhitespace
        if let stub, let served, sameMediaType(stub, served) { return nil }
        // Quoted text is cut so that a hostile header cannot inflate the report.
        switch (stub?.excerpt(200), served?.excerpt(200)) {
        case (nil, nil):
            return nil
        case (let stub?, nil):
            return Drift(rule: .driftType, message: "the stub answers \(stub), the live API sends no Content-Type", expected: stub)
        case (nil, let served?):
            return Drift(rule: .driftType, message: "the stub sends no Content-Type, the live API answers \(served)", actual: served)
        case (let stub?, let served?):
            return Drift(rule: .driftType, message: "the stub answers \(stub), the live API \(served)", expected: stub, actual: served)
        }
    }

    /// The `type-matches` comparison made symmetric, so that a profile added or removed on
    /// either side is drift; text that does not parse compares as text.
    private static func sameMediaType(_ lhs: String, _ rhs: String) -> Bool {
        guard let left = try? MediaType(parsing: lhs), let right = try? MediaType(parsing: rhs) else { return lhs == rhs }
        return left.matches(right) && right.matches(left)
    }

    // MARK: Headers

    static func headerDrifts(_ expected: [HTTPHeader], _ live: [HTTPHeader], names: [String]) -> [Drift] {
        var drifts: [Drift] = []
        var seen: [String] = []
        for name in names where !seen.contains(where: { $0.caseInsensitiveEquals(name) }) {
            seen.append(name)
            // Repeated fields are one comma-separated value (RFC 9110 §5.3).
            let stub = joined(expected.values(named: name))
            let served = joined(live.values(named: name))
            if stub == served { continue }
            let shown = name.excerpt(200)
            switch (stub?.excerpt(200), served?.excerpt(200)) {
            case (nil, nil):
                continue
            case (let stub?, nil):
                drifts.append(Drift(
                    rule: .driftHeader, message: "the header \(shown) is sent by the stub (\"\(stub)\") but not by the live API",
                    expected: stub, pointer: name))
            case (nil, let served?):
                drifts.append(Drift(
                    rule: .driftHeader, message: "the header \(shown) is sent by the live API (\"\(served)\") but not by the stub",
                    actual: served, pointer: name))
            case (let stub?, let served?):
                drifts.append(Drift(
                    rule: .driftHeader, message: "the header \(shown) is \"\(stub)\" in the stub, \"\(served)\" live",
                    expected: stub, actual: served, pointer: name))
            }
        }
        return drifts
    }

    private static func joined(_ values: [String]) -> String? {
        values.isEmpty ? nil : values.map(\.trimmedASCIIWhitespace).joined(separator: ", ")
    }
}
