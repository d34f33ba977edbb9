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

    /// Parses `text`; returns a reason when it is not a valid pattern.
    public static func parse(_ text: String) -> Result<PathPattern, PatternError> {
        guard text.hasPrefix("/") || text == "*" || text.hasPrefix("*") else {
            return .failure(PatternError("a path must start with '/' (got \"\(text)\")"))
        }
        var segments: [Segment] = []
        var kind = Kind.literal
        var names = Set<String>()
        for raw in text.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let segment = String(raw)
            if segment == "**" {
                segments.append(.globstar)
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
                segments.append(.variable(name: name, prefix: String(segment[..<open]), suffix: String(segment[segment.index(after: close)...])))
                if kind == .literal { kind = .template }
            } else if segment.utf8.contains(UInt8(ascii: "*")) || segment.utf8.contains(UInt8(ascii: "?")) {
                segments.append(.glob(segment))
                kind = .glob
            } else {
                segments.append(.literal(segment))
            }
        }
        if text.hasPrefix("*") {  // "*" alone: any path
            return .success(PathPattern(text: text, kind: .glob, segments: [.globstar]))
        }
        return .success(PathPattern(text: text, kind: kind, segments: segments))
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
        var parameters: [String: String] = [:]
        return matchFrom(0, 0, path, &parameters) ? parameters : nil
    }

    private func matchFrom(_ start: Int, _ pathStart: Int, _ path: [Substring], _ parameters: inout [String: String]) -> Bool {
        var index = start
        var position = pathStart
        while index < segments.count {
            switch segments[index] {
            case .globstar:
                // Try every split point; `**` also matches no segment at all.
                for next in position...path.count where matchFrom(index + 1, next, path, &parameters) { return true }
                return false
            case .literal(let literal):
                guard position < path.count, path[position] == literal else { return false }
            case .variable(let name, let prefix, let suffix):
                guard position < path.count else { return false }
                let segment = path[position]
                guard segment.utf8.count > prefix.utf8.count + suffix.utf8.count, segment.hasPrefix(prefix), segment.hasSuffix(suffix) else {
                    return false
                }
                parameters[name] = String(segment.dropFirst(prefix.count).dropLast(suffix.count))
            case .glob(let glob):
                guard position < path.count, Self.globMatches(Array(glob.utf8)[...], Array(path[position].utf8)[...]) else { return false }
            }
            index += 1
            position += 1
        }
        return position == path.count
    }

    private static func globMatches(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        guard let head = pattern.first else { return text.isEmpty }
        switch head {
        case UInt8(ascii: "*"):
            var rest = text
            while true {
                if globMatches(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        case UInt8(ascii: "?"):
            return !text.isEmpty && globMatches(pattern.dropFirst(), text.dropFirst())
        default:
            return text.first == head && globMatches(pattern.dropFirst(), text.dropFirst())
        }
    }

    /// Splits a path into segments after the leading `/` (what precedes the first `/` is dropped):
    /// `/a/b` → `["a", "b"]`, `/` → `[""]`. Scans UTF-8; `String.split` works on Characters and
    /// cost more than the rest of a lookup.
    static func split(_ path: String) -> [Substring] {
        let utf8 = path.utf8
        guard var start = utf8.firstIndex(of: UInt8(ascii: "/")) else { return [] }
        start = utf8.index(after: start)
        var segments: [Substring] = []
        segments.reserveCapacity(8)
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                segments.append(path[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        segments.append(path[start..<utf8.endIndex])
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
