import APICheckJSON
import APICheckModel

/// Warnings about names a template uses that its context cannot provide.
///
/// The context's shape is known up to the request-dependent parts: `request.pathParams`, `query`,
/// `headers` and `json` accept any name, and so does anything inside a section over them. Lookups
/// follow swift-mustache: a name's first segment is searched from the innermost section outwards.
enum TemplateLint {
    private indirect enum Shape {
        /// Known members.
        case object(String, [String: Shape])
        /// Anything may be there (request-dependent).
        case open
        /// Text: no members.
        case text(String)
    }

    /// Variables are known to the last member; arrays are open (sections over them see elements).
    private static func shape(of value: JSONValue, named name: String) -> Shape {
        switch value {
        case .object(let members):
            var shapes: [String: Shape] = [:]
            for member in members where shapes[member.key] == nil {
                shapes[member.key] = shape(of: member.value, named: name + "." + member.key)
            }
            return .object(name, shapes)
        case .array: return .open
        default: return .text(name)
        }
    }

    private enum Resolution {
        case found(Shape)
        case missing(String)
    }

    /// Warnings reported per template; the rest are counted.
    static let maximumWarnings = 100

    static let builtInNames = ["request", "baseURL"]

    private static let request = Shape.object("request", [
        "method": .text("request.method"),
        "path": .text("request.path"),
        "body": .text("request.body"),
        "pathParams": .open,
        "query": .open,
        "headers": .open,
        "json": .open,
    ])

    static func check(_ tags: [TemplateScanner.Tag], variables: [String: JSONValue], path: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var dropped = 0
        func warn(_ message: String, _ location: TemplateScanner.Location) {
            guard diagnostics.count < maximumWarnings else {
                dropped += 1
                return
            }
            diagnostics.append(.warning(message, at: SourceLocation(path: path, line: location.line, column: location.column)))
        }
        for name in variables.keys.sorted() {
            if builtInNames.contains(name) {
                warn("the stub variable '\(name)' is hidden by the built-in '\(name)'", .init(line: 1, column: 1))
            } else if name.isEmpty || name.contains(".") || !name.allSatisfy(TemplateScanner.nameCharactersWithoutBrackets.contains) {
                warn("the stub variable '\(name)' cannot be referenced: names use letters, digits and - _ ? *", .init(line: 1, column: 1))
            }
        }
        var members: [String: Shape] = ["request": request, "baseURL": .text("baseURL")]
        for (name, value) in variables where members[name] == nil {
            members[name] = shape(of: value, named: name)
        }
        let root = Shape.object("", members)
        // One entry per open section: the shape it pushed (nil: pushes nothing), or `inert` when the
        // section never renders its content (a partial's block definitions).
        var stack: [(shape: Shape?, inert: Bool)] = [(root, false)]
        for tag in tags {
            let inert = stack.last?.inert ?? false
            switch tag.kind {
            case .variable, .unescapedVariable:
                guard !inert else { continue }
                if case .missing(let message) = resolve(tag.name, transforms: tag.transforms, in: stack.compactMap(\.shape), root: root) {
                    warn(message, tag.location)
                }
            case .section:
                guard !inert else {
                    stack.append((nil, true))
                    continue
                }
                switch resolve(tag.name, transforms: tag.transforms, in: stack.compactMap(\.shape), root: root) {
                case .missing(let message):
                    warn(message, tag.location)
                    stack.append((.open, false))  // its content never renders; do not cascade
                case .found(let shape):
                    stack.append((tag.transforms.isEmpty ? shape : .open, false))
                }
            case .invertedSection:
                if !inert, case .missing(let message) = resolve(tag.name, transforms: tag.transforms, in: stack.compactMap(\.shape), root: root) {
                    warn(message, tag.location)
                }
                stack.append((nil, inert))
            case .block:
                stack.append((nil, inert))
            case .inheritingPartial:
                if !inert { warn("partials are not supported: '{{<\(tag.name)}}' renders nothing", tag.location) }
                stack.append((nil, true))
            case .partial:
                if !inert { warn("partials are not supported: '{{>\(tag.name)}}' renders nothing", tag.location) }
            case .close:
                if stack.count > 1 { stack.removeLast() }
            case .comment, .setDelimiter, .pragma:
                break
            }
        }
        if dropped > 0 {
            diagnostics.append(.warning("\(dropped) more warnings about names not shown", at: SourceLocation(path: path)))
        }
        return diagnostics
    }

    /// Resolves `name` as swift-mustache does, against the shapes of the open sections (innermost last).
    private static func resolve(_ name: String, transforms: [String], in stack: [Shape], root: Shape) -> Resolution {
        if name == "." || (name.isEmpty && !transforms.isEmpty) { return .found(.open) }
        let segments = name.split(separator: ".").map(String.init)
        guard let first = segments.first else { return .found(.open) }
        if name.hasPrefix(".") {
            guard let top = stack.last else { return .found(.open) }
            return walk(segments, from: top, written: name)
        }
        for shape in stack.reversed() {
            switch shape {
            case .open:
                return .found(.open)
            case .object(_, let members):
                if let member = members[first] {
                    return walk(Array(segments.dropFirst()), from: member, written: name, prefix: first)
                }
            case .text:
                continue
            }
        }
        guard case .object(_, let members) = root else { return .found(.open) }
        let names = members.keys.sorted()
        var message = "'\(name)' is not in the template context and renders as nothing"
        if let suggestion = closest(to: first, among: names) { message += "; did you mean '\(suggestion)'?" }
        message += " (top-level names: \(names.joined(separator: ", ")))"
        return .missing(message)
    }

    private static func walk(_ segments: [String], from shape: Shape, written: String, prefix: String = "") -> Resolution {
        var shape = shape
        var path = prefix
        for segment in segments {
            switch shape {
            case .open:
                return .found(.open)
            case .text(let owner):
                return .missing("'\(written)' renders as nothing: \(owner.isEmpty ? path : owner) is text and has no '\(segment)'")
            case .object(let owner, let members):
                guard let member = members[segment] else {
                    let names = members.keys.sorted()
                    var message = "'\(written)' is not in the template context and renders as nothing: \(owner.isEmpty ? path : owner) has \(names.joined(separator: ", "))"
                    if let suggestion = closest(to: segment, among: names) { message += "; did you mean '\(suggestion)'?" }
                    return .missing(message)
                }
                shape = member
            }
            path += path.isEmpty ? segment : ".\(segment)"
        }
        return .found(shape)
    }

    /// The candidate within a small edit distance of `name`, if any.
    private static func closest(to name: String, among candidates: [String]) -> String? {
        guard name.count <= 64 else { return nil }
        let limit = name.count <= 3 ? 1 : max(2, name.count / 3)
        return candidates
            .map { ($0, editDistance(name.lowercased(), $0.lowercased())) }
            .filter { $0.1 <= limit }
            .min { $0.1 < $1.1 }?.0
    }

    /// Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previous
            previous = row
        }
        return previous[b.count]
    }
}
