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
            } else if segment.contains("{") || segment.contains("}") {
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
            } else if segment.contains("*") || segment.contains("?") {
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

    /// The literal first segment, used to index non-literal patterns; `nil` when it varies.
    var indexSegment: String? {
        guard case .literal(let first)? = segments.first else { return nil }
        return first
    }

    public var description: String { text }

    /// Matches a request path split into segments (as ``PathPattern/split(_:)`` does); returns the
    /// bound template variables on success.
    func match(segments path: [Substring]) -> [String: String]? {
        var parameters: [String: String] = [:]
        return matchFrom(0, path[...], &parameters) ? parameters : nil
    }

    private func matchFrom(_ index: Int, _ path: ArraySlice<Substring>, _ parameters: inout [String: String]) -> Bool {
        guard index < segments.count else { return path.isEmpty }
        switch segments[index] {
        case .globstar:
            var rest = path
            while true {
                if matchFrom(index + 1, rest, &parameters) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        case .literal(let literal):
            guard let first = path.first, first == literal else { return false }
            return matchFrom(index + 1, path.dropFirst(), &parameters)
        case .variable(let name, let prefix, let suffix):
            guard let first = path.first, first.count > prefix.count + suffix.count,
                first.hasPrefix(prefix), first.hasSuffix(suffix)
            else { return false }
            parameters[name] = String(first.dropFirst(prefix.count).dropLast(suffix.count))
            return matchFrom(index + 1, path.dropFirst(), &parameters)
        case .glob(let glob):
            guard let first = path.first, Self.globMatches(Array(glob.utf8)[...], Array(first.utf8)[...]) else { return false }
            return matchFrom(index + 1, path.dropFirst(), &parameters)
        }
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

    /// Splits a path into segments after the leading `/`.
    static func split(_ path: String) -> [Substring] {
        Array(path.split(separator: "/", omittingEmptySubsequences: false).dropFirst())
    }
}

/// Why a pattern is invalid.
public struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
