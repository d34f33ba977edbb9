/// Reads the values of a template's path variables back from a URL: `/items/{id}` matches
/// `/items/3` with `id` = 3. Simple (`{id}`) and path (`{/id}`) expressions only, one segment
/// each; the query and anything after an expression of another kind is not compared.
struct TemplateMatcher: Sendable {
    private enum Piece: Sendable {
        case literal(Substring)
        case variable(String)
    }

    private let pieces: [Piece]

    /// `nil` when the template has no variable it can match.
    init?(_ template: String) {
        var pieces: [Piece] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append(.literal(rest[..<open])) }
            guard let close = rest[open...].firstIndex(of: "}") else { return nil }
            var expression = rest[rest.index(after: open)..<close]
            if expression.first == "/" {
                pieces.append(.literal("/"))
                expression = expression.dropFirst()
            } else if let first = expression.first, "+#.;?&".contains(first) {
                break
            }
            guard !expression.isEmpty, !expression.contains(","), !expression.contains(":"), !expression.contains("*") else { return nil }
            pieces.append(.variable(String(expression)))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty, !rest.hasPrefix("{") { pieces.append(.literal(rest)) }
        guard pieces.contains(where: { if case .variable = $0 { true } else { false } }) else { return nil }
        self.pieces = pieces
    }

    /// The variables' values (as in the URL, still percent-encoded), or `nil` when `url` does not
    /// have the template's shape.
    func match(_ url: String) -> [String: String]? {
        var rest = url.prefix { $0 != "?" && $0 != "#" }
        var values: [String: String] = [:]
        for piece in pieces {
            switch piece {
            case .literal(let literal):
                guard rest.hasPrefix(literal) else { return nil }
                rest = rest.dropFirst(literal.count)
            case .variable(let name):
                let value = rest.prefix { $0 != "/" }
                guard !value.isEmpty else { return nil }
                values[name] = String(value)
                rest = rest.dropFirst(value.count)
            }
        }
        return rest.isEmpty ? values : nil
    }
}
