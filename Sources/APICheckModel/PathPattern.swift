/// How a stub names the paths it answers: a literal path, a template (`/movies/{id}`) or a glob
/// (`/assets/*.jpg`, `/files/**`).
///
/// Templates bind one variable per `{name}`, which may have a literal prefix and suffix within its
/// segment (`/poster/{id}.jpg`). In globs `*` and `?` stay within a segment and `**` spans any
/// number of segments.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Int, Sendable, Hashable, Comparable {
        case glob = 0, template = 1, literal = 2

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    enum Segment: Sendable, Hashable {
        case literal(String)
        case variable(name: String, prefix: String, suffix: String)
        case glob(String)
        case globstar
    }

    /// The pattern as written.
    public let text: String
    public let kind: Kind
    let segments: [Segment]
    /// For a literal pattern, the path it matches (percent-escapes decoded), as requests carry it.
    let literalPath: String

    init(text: String, kind: Kind, segments: [Segment]) {
        self.text = text
        self.kind = kind
        self.segments = segments
        self.literalPath = kind == .literal
            ? "/" + segments.map { segment -> String in
                if case .literal(let literal) = segment { return literal }
                return ""
            }.joined(separator: "/")
            : text
    }

    /// Parses `text`; returns a reason when it is not a valid pattern.
    /// Longest pattern accepted, and most segments: bounds matching work on untrusted stubs.
    public static let maximumLength = 2048
    public static let maximumSegments = 64

    public static func parse(_ text: String) -> Result<PathPattern, PatternError> {
        if text == "*" { return .success(PathPattern(text: text, kind: .glob, segments: [.globstar])) }
        guard text.hasPrefix("/") else {
            return .failure(PatternError("a path must start with '/' (got \"\(text)\"); \"*\" alone matches every path"))
        }
        guard text.utf8.count <= maximumLength else {
            return .failure(PatternError("the path is longer than \(maximumLength) characters"))
        }
        var segments: [Segment] = []
        var kind = Kind.literal
        var names = Set<String>()
        for raw in text.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let segment = String(raw)
            if segment == "**" {
                if segments.last != .globstar { segments.append(.globstar) }  // `**/**` is `**`
                kind = .glob
            } else if segment.utf8.contains(UInt8(ascii: "{")) || segment.utf8.contains(UInt8(ascii: "}")) {
                guard let open = segment.firstIndex(of: "{"), let close = segment.firstIndex(of: "}"), open < close,
                    segment[segment.index(after: close)...].firstIndex(where: { $0 == "{" || $0 == "}" }) == nil
                else {
                    return .failure(PatternError("segment \"\(segment)\" needs exactly one {name}"))
                }
                let name = String(segment[segment.index(after: open)..<close])
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else {
                    return .failure(PatternError("\"{\(name)}\" is not a valid variable name (letters, digits, _ - .)"))
                }
                guard names.insert(name).inserted else {
                    return .failure(PatternError("variable {\(name)} appears twice"))
                }
                segments.append(.variable(name: name, prefix: decoded(segment[..<open]), suffix: decoded(segment[segment.index(after: close)...])))
                if kind == .literal { kind = .template }
            } else if segment.utf8.contains(UInt8(ascii: "*")) {
                segments.append(.glob(segment))
                kind = .glob
            } else {
                // Percent-escapes stand for literal characters: `%7Bx%7D` is the text "{x}", not a template.
                segments.append(.literal(decoded(Substring(segment))))
            }
            guard segments.count <= maximumSegments else {
                return .failure(PatternError("the path has more than \(maximumSegments) segments"))
            }
        }
        return .success(PathPattern(text: text, kind: kind, segments: segments))
    }

    private static func decoded(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return String(text).removingPercentEncoding ?? String(text)
    }

    /// The literal segments before the first variable or glob, which index the pattern.
    var literalPrefix: ArraySlice<String> {
        var prefix: [String] = []
        for segment in segments {
            guard case .literal(let literal) = segment else { break }
            prefix.append(literal)
        }
        return prefix[...]
    }

    public var description: String { text }

    /// Matches every path (`/**`).
    public static let anything = PathPattern(text: "/**", kind: .glob, segments: [.globstar])

    /// Matches a request path split into segments (as ``PathPattern/split(_:)`` does); returns the
    /// bound template variables on success. Index-based: no slices, so no retains per step.
    func match(segments path: [Substring]) -> [String: String]? {
        var parameters: [String: String]? = [:]
        var failed = Set<Int>()
        return matchFrom(0, 0, path, &parameters, &failed) ? parameters : nil
    }

    /// Whether the pattern matches, without binding its variables (no dictionary to allocate):
    /// what choosing a stub needs; the values are bound only for the stub chosen, when read.
    func matches(segments path: [Substring]) -> Bool {
        var parameters: [String: String]? = nil
        var failed = Set<Int>()
        return matchFrom(0, 0, path, &parameters, &failed)
    }

    /// Index-based (no slices, no retains per step). With `**`, states that failed once are
    /// remembered, so the work is at most segments × path segments whatever the pattern.
    /// `parameters` is `nil` when the caller only needs to know whether the pattern matches.
    private func matchFrom(_ start: Int, _ pathStart: Int, _ path: [Substring], _ parameters: inout [String: String]?, _ failed: inout Set<Int>) -> Bool {
        var index = start
        var position = pathStart
        while index < segments.count {
            switch segments[index] {
            case .globstar:
                let state = index * (path.count + 1) + position
                guard !failed.contains(state) else { return false }
                for next in position...path.count where matchFrom(index + 1, next, path, &parameters, &failed) { return true }
                failed.insert(state)
                return false
            case .literal(let literal):
                guard position < path.count, path[position] == literal else { return false }
            case .variable(let name, let prefix, let suffix):
                guard position < path.count else { return false }
                let segment = path[position]
                if prefix.isEmpty && suffix.isEmpty {
                    // The common `{id}`: no Character-wise prefix and suffix work.
                    guard !segment.isEmpty else { return false }
                    if parameters != nil { parameters?[name] = String(segment) }
                } else {
                    guard segment.utf8.count > prefix.utf8.count + suffix.utf8.count, segment.hasPrefix(prefix), segment.hasSuffix(suffix) else {
                        return false
                    }
                    if parameters != nil { parameters?[name] = String(segment.dropFirst(prefix.count).dropLast(suffix.count)) }
                }
            case .glob(let glob):
                guard position < path.count, Self.globMatches(glob.utf8, path[position].utf8) else { return false }
            }
            index += 1
            position += 1
        }
        return position == path.count
    }

    /// `*` matches any run of characters within a segment. Iterative with one backtrack point
    /// (the classic wildcard algorithm): O(pattern × text), no recursion.
    static func globMatches(_ pattern: String.UTF8View, _ text: Substring.UTF8View) -> Bool {
        let pattern = Array(pattern)
        let text = Array(text)
        var p = 0
        var t = 0
        var star = -1
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = p
                resume = t
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if star >= 0 {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }

    /// Splits a path into segments after the leading `/` (what precedes the first `/` is dropped):
    /// `/a/b` → `["a", "b"]`, `/` → `[""]`. Scans UTF-8; `String.split` works on Characters and
    /// cost more than the rest of a lookup.
    static func split(_ path: String) -> [Substring] {
        let utf8 = path.utf8
        // Slash offsets from the contiguous bytes, then Substrings of the UTF-8 view: slicing the
        // String itself would round every bound to a Character boundary (a grapheme check each).
        if let segments = utf8.withContiguousStorageIfAvailable({ bytes -> [Substring] in
            guard let first = bytes.firstIndex(of: UInt8(ascii: "/")) else { return [] }
            var segments: [Substring] = []
            segments.reserveCapacity(8)
            var start = first + 1
            for offset in start..<bytes.count where bytes[offset] == UInt8(ascii: "/") {
                segments.append(Substring(utf8[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: offset)]))
                start = offset + 1
            }
            segments.append(Substring(utf8[utf8.index(utf8.startIndex, offsetBy: start)...]))
            return segments
        }) {
            return segments
        }
        guard var start = utf8.firstIndex(of: UInt8(ascii: "/")) else { return [] }
        start = utf8.index(after: start)
        var segments: [Substring] = []
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                segments.append(Substring(utf8[start..<index]))
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        segments.append(Substring(utf8[start..<utf8.endIndex]))
        return segments
    }
}

/// Why a pattern is invalid.
public struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
