import Foundation

/// Finds the operation a request reaches: the longest server base path that prefixes the
/// request's path, then the path template that matches what is left, a literal segment winning
/// over a templated one at the first place they differ (`/movies/new` before `/movies/{id}`),
/// then the method. A template parameter matches one whole segment or part of one
/// (`/files/{name}.json`), never a `/`.
public struct OperationMatcher: Sendable {
    /// What a request reaches.
    public enum Match: Sendable {
        /// A documented operation.
        case operation(OpenAPIOperation)
        /// The path is documented, the method is not; the methods that are.
        case methodNotDocumented(path: String, methods: [String])
        /// No template matches the path (under any server's base path).
        case pathNotDocumented
    }

    struct Template: Sendable {
        var path: String
        var segments: [Segment]
        var operations: [String: OpenAPIOperation]
        /// The base paths some operation of this path is served under (computed at init).
        var servedBases: Set<String> = []
    }

    enum Segment: Sendable {
        case literal(String)
        /// Literal pieces between parameters: `{name}.json` is `["", ".json"]`.
        case templated([String])

        var isLiteral: Bool {
            if case .literal = self { return true }
            return false
        }
    }

    let templates: [Template]
    let basePaths: [String]

    init(operations: [OpenAPIOperation], basePaths: [String]) {
        var templates: [Template] = []
        var index: [String: Int] = [:]
        for operation in operations {
            if let at = index[operation.path] {
                templates[at].operations[operation.method] = operation
            } else {
                index[operation.path] = templates.count
                templates.append(Template(path: operation.path, segments: Self.segments(of: operation.path), operations: [operation.method: operation]))
            }
        }
        for at in templates.indices {
            for operation in templates[at].operations.values { templates[at].servedBases.formUnion(operation.basePaths ?? basePaths) }
        }
        self.templates = templates
        // Every base path some operation is served under, longest first.
        var all = basePaths
        for operation in operations {
            for base in operation.basePaths ?? [] where !all.contains(base) { all.append(base) }
        }
        self.basePaths = all.sorted { $0.count > $1.count }
        self.documentBasePaths = basePaths
    }

    /// The document's own servers' paths (operations without servers of their own use these).
    let documentBasePaths: [String]

    static func segments(of template: String) -> [Segment] {
        splitPath(template).map { segment in
            guard segment.contains("{") else { return .literal(segment.removingPercentEncoding ?? segment) }
            var pieces: [String] = []
            var current = ""
            var inside = false
            for character in segment {
                if character == "{" {
                    inside = true
                    pieces.append(current)
                    current = ""
                } else if character == "}" {
                    inside = false
                } else if !inside {
                    current.append(character)
                }
            }
            pieces.append(current)
            return .templated(pieces)
        }
    }

    /// `/a/b/` → `["a", "b", ""]`; `/` → `[""]`: a trailing slash is a segment, as servers see it.
    static func splitPath(_ path: String) -> [String] {
        var trimmed = Substring(path)
        if trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    }

    func match(method: String, path: String) -> Match {
        let method = method.uppercased()
        for base in basePaths {
            guard path == base || path.hasPrefix(base + "/") || base.isEmpty else { continue }
            var rest = String(path.dropFirst(base.count))
            if rest.isEmpty { rest = "/" }
            // Only operations served under this base (their own servers, else the document's).
            let served = { (operation: OpenAPIOperation) in (operation.basePaths ?? self.documentBasePaths).contains(base) }
            guard let template = bestTemplate(for: rest, where: { $0.servedBases.contains(base) }) else { continue }
            if let operation = template.operations[method], served(operation) { return .operation(operation) }
            return .methodNotDocumented(path: template.path, methods: template.operations.values.filter(served).map(\.method).sorted())
        }
        return .pathNotDocumented
    }

    private func bestTemplate(for path: String, where isServed: (Template) -> Bool) -> Template? {
        // Most paths have nothing percent-encoded: Foundation's decoding is only paid where needed.
        let segments = Self.splitPath(path).map { $0.contains("%") ? ($0.removingPercentEncoding ?? $0) : $0 }
        var best: (template: Template, shape: [Bool])?
        for template in templates where template.segments.count == segments.count && isServed(template) {
            guard zip(template.segments, segments).allSatisfy(Self.matches) else { continue }
            let shape = template.segments.map(\.isLiteral)
            if let current = best, !Self.morePrecise(shape, than: current.shape) { continue }
            best = (template, shape)
        }
        return best?.template
    }

    /// Literal beats templated at the first segment where they differ.
    private static func morePrecise(_ lhs: [Bool], than rhs: [Bool]) -> Bool {
        for (left, right) in zip(lhs, rhs) where left != right { return left }
        return false
    }

    private static func matches(_ segment: Segment, _ value: String) -> Bool {
        switch segment {
        case .literal(let literal):
            return literal == value
        case .templated(let pieces):
            // Each parameter takes at least one character; pieces are matched left to right.
            var rest = Substring(value)
            guard let first = pieces.first, rest.hasPrefix(first) else { return false }
            rest = rest.dropFirst(first.count)
            for (offset, piece) in pieces.dropFirst().enumerated() {
                let isLast = offset == pieces.count - 2
                guard !rest.isEmpty else { return false }
                if isLast {
                    guard rest.count > piece.count, rest.hasSuffix(piece) else { return false }
                    rest = ""
                } else if piece.isEmpty {
                    // Two parameters side by side: the first takes one character.
                    rest = rest.dropFirst()
                } else {
                    guard let found = rest.dropFirst().range(of: piece) else { return false }
                    rest = rest[found.upperBound...]
                }
            }
            return true
        }
    }
}
