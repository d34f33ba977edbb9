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

    /// Immutable and shared: copying a pattern (every match carries its stub's) costs one retain.
    private let storage: Storage

    /// The pattern as written.
    public var text: String { storage.text }
    public var kind: Kind { storage.kind }
    var segments: [Segment] { storage.segments }
    /// For a literal pattern, the path it matches (percent-escapes decoded), as requests carry it.
    var literalPath: String { storage.literalPath }

    init(text: String, kind: Kind, segments: [Segment]) {
        storage = Storage(text: text, kind: kind, segments: segments)
    }

    public static func == (lhs: PathPattern, rhs: PathPattern) -> Bool {
        lhs.storage === rhs.storage || (lhs.text == rhs.text && lhs.kind == rhs.kind && lhs.segments == rhs.segments)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(kind)
    }

    /// Parses `text`; returns a reason when it is not a valid pattern.
    /// Longest pattern accepted, and most segments: bounds matching work on untrusted stubs.
    public static let maximumLength = 2048
    public static let maximumSegments = 64

    /// A stub's `uri-path` (or a code stub's route): the path pattern, and any `?name=value&…`
    /// part as query constraints (percent-decoded; a name without `=` requires the name only).
    public static func parseWithQuery(_ text: String) -> Result<(path: PathPattern, query: [ValueConstraint]), PatternError> {
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [ValueConstraint] = []
        if parts.count == 2 {
            for item in parts[1].split(separator: "&") where !item.isEmpty {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0]).removingPercentEncoding ?? String(pair[0])
                let value = pair.count == 2 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : nil
                query.append(ValueConstraint(name: name, value: value))
            }
        }
        return parse(parts.first.map(String.init) ?? "").map { ($0, query) }
    }

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

    /// The values the pattern's variables take in `path`, or `nil` when it does not match.
    func match(_ path: PathSegments) -> [String: String]? {
        var bindings: [String: String]? = [:]
        return storage.run(path, &bindings) ? bindings : nil
    }

    /// Whether the pattern matches, without binding its variables (no dictionary to allocate):
    /// what choosing a stub needs; the values are bound only for the stub chosen, when read.
    /// A literal pattern compares the whole path (a decoded `%2F` in it is not a separator).
    func matches(_ path: PathSegments) -> Bool {
        if kind == .literal {
            // A native string's UTF-8 is contiguous; the copy is never made on any platform we run on.
            return storage.literalPath.utf8.withContiguousStorageIfAvailable { $0.bytesEqual(path.bytes) }
                ?? Array(storage.literalPath.utf8).withUnsafeBufferPointer { $0.bytesEqual(path.bytes) }
        }
        var bindings: [String: String]? = nil
        return storage.run(path, &bindings)
    }

    /// Whether the pattern matches `path` (percent-decoded, starting with `/`).
    public func matches(path: String) -> Bool {
        PathSegments.withSegments(of: path) { matches($0) }
    }

    /// How close `path` comes to matching, for ranking near misses: two per leading literal
    /// segment it shares, one per variable or glob before the first difference, one more when
    /// the segment counts agree.
    func similarity(to path: PathSegments) -> Int {
        storage.steps.withUnsafeBufferPointer { steps in
            storage.pool.withUnsafeBufferPointer { pool in
                var score = 0
                for position in 0..<min(steps.count, path.count) {
                    let step = steps[position]
                    if step.operation != .literal {
                        score += 1
                    } else if path[position].bytesEqual(pool.slice(step.start, step.count)) {
                        score += 2
                    } else {
                        return score
                    }
                }
                return score + (steps.count == path.count ? 1 : 0)
            }
        }
    }

    /// `*` matches any run of bytes within a segment. Iterative with one backtrack point (the
    /// classic wildcard algorithm): O(pattern × text), no recursion.
    static func globMatches(_ pattern: UnsafeBufferPointer<UInt8>, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
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

    /// One segment of a compiled pattern: plain values over a byte pool, so trying a pattern
    /// reads no enum payloads and retains nothing.
    struct Step: Sendable {
        enum Operation: UInt8 { case literal, variable, glob, globstar }
        var operation: Operation
        /// The step's bytes in the pool: the literal, the glob, or a variable's prefix then suffix.
        var start: Int32
        var count: Int32
        /// How many of a variable's bytes are its suffix; its name is `names[variable]`.
        var suffixCount: Int32 = 0
        var variable: Int32 = -1
    }

    private final class Storage: Sendable {
        let text: String
        let kind: Kind
        let segments: [Segment]
        let literalPath: String
        /// The segments compiled for matching: trivial steps over one byte pool, so trying a
        /// pattern reads no enum payloads and retains nothing.
        let steps: [Step]
        let pool: [UInt8]
        let names: [String]

        init(text: String, kind: Kind, segments: [Segment]) {
            self.text = text
            self.kind = kind
            self.segments = segments
            literalPath = kind == .literal
                ? "/" + segments.map { segment -> String in
                    if case .literal(let literal) = segment { return literal }
                    return ""
                }.joined(separator: "/")
                : text
            var steps: [Step] = []
            var pool: [UInt8] = []
            var names: [String] = []
            func bytes(_ text: String...) -> (Int32, Int32) {
                let start = pool.count
                for part in text { pool += part.utf8 }
                return (Int32(start), Int32(pool.count - start))
            }
            for segment in segments {
                switch segment {
                case .literal(let literal):
                    let (start, count) = bytes(literal)
                    steps.append(Step(operation: .literal, start: start, count: count))
                case .variable(let name, let prefix, let suffix):
                    let (start, count) = bytes(prefix, suffix)
                    steps.append(Step(operation: .variable, start: start, count: count, suffixCount: Int32(suffix.utf8.count), variable: Int32(names.count)))
                    names.append(name)
                case .glob(let glob):
                    let (start, count) = bytes(glob)
                    steps.append(Step(operation: .glob, start: start, count: count))
                case .globstar:
                    steps.append(Step(operation: .globstar, start: 0, count: 0))
                }
            }
            self.steps = steps
            self.pool = pool
            self.names = names
        }

        /// `bindings` is `nil` when the caller only needs to know whether the pattern matches.
        func run(_ path: PathSegments, _ bindings: inout [String: String]?) -> Bool {
            steps.withUnsafeBufferPointer { steps in
                pool.withUnsafeBufferPointer { pool in PathPattern.run(steps, pool, names, path, &bindings) }
            }
        }
    }

    /// A pattern's steps appended to `steps` and their bytes to `pool` (offsets rebased): a set's
    /// matcher keeps every pattern in two arrays and matches them with ``run(_:_:_:_:_:)``,
    /// reading no pattern's own storage. Returns where the steps start and how many there are.
    func appendCompiled(steps: inout [Step], pool: inout [UInt8]) -> (start: Int32, count: Int32) {
        let start = Int32(steps.count)
        let base = Int32(pool.count)
        pool += storage.pool
        steps += storage.steps.map { step in
            var step = step
            step.start += base
            return step
        }
        return (start, Int32(storage.steps.count))
    }

    /// The one matcher of compiled steps. `bindings` is `nil` when the caller only needs to know
    /// whether the steps match (then `names` is not read).
    static func run(
        _ steps: UnsafeBufferPointer<Step>, _ pool: UnsafeBufferPointer<UInt8>, _ names: [String], _ path: PathSegments,
        _ bindings: inout [String: String]?
    ) -> Bool {
        var failed = Set<Int>()
        return matchFrom(0, 0, steps, pool, names, path, &bindings, &failed)
    }

    /// With `**`, states that failed once are remembered, so the work is at most steps × path
    /// segments whatever the pattern.
    private static func matchFrom(
        _ start: Int, _ pathStart: Int, _ steps: UnsafeBufferPointer<Step>, _ pool: UnsafeBufferPointer<UInt8>, _ names: [String],
        _ path: PathSegments, _ bindings: inout [String: String]?, _ failed: inout Set<Int>
    ) -> Bool {
        var index = start
        var position = pathStart
        while index < steps.count {
            let step = steps[index]
            switch step.operation {
            case .globstar:
                let state = index * (path.count + 1) + position
                guard !failed.contains(state) else { return false }
                for next in position...path.count where matchFrom(index + 1, next, steps, pool, names, path, &bindings, &failed) { return true }
                failed.insert(state)
                return false
            case .literal:
                guard position < path.count, path[position].bytesEqual(pool.slice(step.start, step.count)) else { return false }
            case .variable:
                guard position < path.count else { return false }
                let segment = path[position]
                let prefixCount = Int(step.count - step.suffixCount)
                let suffixCount = Int(step.suffixCount)
                // `{id}` alone needs a non-empty segment; with a prefix or suffix, a non-empty value.
                guard segment.count > prefixCount + suffixCount,
                    UnsafeBufferPointer(rebasing: segment[..<prefixCount]).bytesEqual(pool.slice(step.start, Int32(prefixCount))),
                    UnsafeBufferPointer(rebasing: segment[(segment.count - suffixCount)...]).bytesEqual(pool.slice(step.start + Int32(prefixCount), step.suffixCount))
                else { return false }
                if bindings != nil {
                    bindings?[names[Int(step.variable)]] = String(decoding: segment[prefixCount..<(segment.count - suffixCount)], as: UTF8.self)
                }
            case .glob:
                guard position < path.count, PathPattern.globMatches(pool.slice(step.start, step.count), path[position]) else { return false }
            }
            index += 1
            position += 1
        }
        return position == path.count
    }
}

/// Why a pattern is invalid.
public struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
