/// A URI template inferred from URLs the crawl fetched, with the values seen for its variables.
public struct InferredTemplate: Sendable, Hashable {
    /// An absolute RFC 6570 template: `http://h/books/{id}`, `http://h/books{?page}`.
    public var template: String
    /// Its variables in template order: path variables (`id`, `id2`, …) then query ones.
    public var variables: [String]
    /// The values each variable took in the URLs, in the order seen, without repeats (URI text,
    /// as written in the URLs).
    public var observedValues: [String: [String]]
    /// One of the URLs it was inferred from.
    public var exampleURL: String
    /// The grouping key it was inferred under (a rel path), `""` when grouped by URL shape.
    public var group: String

    public init(template: String, variables: [String], observedValues: [String: [String]], exampleURL: String, group: String) {
        self.template = template
        self.variables = variables
        self.observedValues = observedValues
        self.exampleURL = exampleURL
        self.group = group
    }
}

/// Infers URI templates from fetched URLs where an API advertises none: `/books/1` … `/books/6`
/// fetched through the same rel path become `/books/{id}`, so templated-read probes reach APIs
/// that only ever link concrete URLs.
///
/// Within a group, URLs with the same origin, path length and query names are compared segment
/// by segment. A segment that varies and looks like an id (integer, UUID, hex, letters mixed with
/// digits) becomes a variable; the other segments must be equal, so `/books/search` never joins
/// `/books/{id}`. Words (`tolkien`, `search`) are route text, except under a rel-path group where
/// every URL has a different word at that place: there the rel path already says they are
/// instances of one link. A varying query value becomes a `{?name}` variable.
public enum TemplateInference {
    /// URLs considered per group; the rest are ignored (a collection of 10⁵ items infers the same
    /// template from its first thousand).
    public static let defaultMaximumURLsPerGroup = 1_000
    /// Templates returned at most.
    public static let defaultMaximumTemplates = 1_000

    /// Templates inferred from `urls`, each with its grouping key (the rel path with indices
    /// stripped, `library → movies[] → self`; `""` groups by URL shape alone), in the order their
    /// first URL appears.
    ///
    /// - Parameter minimumInstances: distinct URLs needed before a template is believed (below 2
    ///   nothing varies, so nothing can be inferred).
    public static func templates(
        from urls: [(url: String, group: String)], minimumInstances: Int = 2,
        maximumURLsPerGroup: Int = defaultMaximumURLsPerGroup, maximumTemplates: Int = defaultMaximumTemplates
    ) -> [InferredTemplate] {
        let minimum = max(2, minimumInstances)
        var groupOrder: [String] = []
        var groups: [String: [(text: String, url: ObservedURL)]] = [:]
        var seen: [String: Set<String>] = [:]
        for (text, group) in urls {
            if groups[group] == nil {
                groupOrder.append(group)
                groups[group] = []
            }
            guard groups[group, default: []].count < maximumURLsPerGroup, let url = ObservedURL(text) else { continue }
            guard seen[group, default: []].insert(text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].description).inserted
            else { continue }
            groups[group, default: []].append((text, url))
        }
        var result: [InferredTemplate] = []
        for group in groupOrder {
            for partition in partitions(groups[group] ?? [], group: group, minimum: minimum) {
                guard result.count < maximumTemplates else { return result }
                if let template = template(from: partition, group: group) { result.append(template) }
            }
        }
        return result
    }

    /// Templates inferred from URLs grouped by their shape alone (no rel paths known).
    public static func templates(from urls: [String], minimumInstances: Int = 2) -> [InferredTemplate] {
        templates(from: urls.map { (url: $0, group: "") }, minimumInstances: minimumInstances)
    }

    /// Sets of URLs that may share one template: same origin, path length and query names, and
    /// equal wherever a segment is not an id.
    private static func partitions(
        _ urls: [(text: String, url: ObservedURL)], group: String, minimum: Int
    ) -> [[(text: String, url: ObservedURL)]] {
        var order: [[String]] = []
        var buckets: [[String]: [(text: String, url: ObservedURL)]] = [:]
        func add(_ key: [String], _ entry: (text: String, url: ObservedURL)) {
            if buckets[key] == nil { order.append(key) }
            buckets[key, default: []].append(entry)
        }
        for entry in urls {
            let url = entry.url
            add([url.origin, url.hasPath ? "/" : "", String(url.segments.count)] + url.queryNames, entry)
        }
        var result: [[(text: String, url: ObservedURL)]] = []
        for key in order {
            let members = buckets[key] ?? []
            guard members.count >= minimum else { continue }
            let wordVariables = group.isEmpty ? [] : wordVariablePositions(members.map(\.url), minimum: minimum)
            var subOrder: [[String]] = []
            var subBuckets: [[String]: [(text: String, url: ObservedURL)]] = [:]
            for entry in members {
                let signature = entry.url.segments.enumerated().map { position, segment -> String in
                    let shape = SegmentShape(segment)
                    if shape.isIdentifier { return "#\(shape)" }
                    return wordVariables.contains(position) ? "#word" : "=" + segment
                }
                if subBuckets[signature] == nil { subOrder.append(signature) }
                subBuckets[signature, default: []].append(entry)
            }
            result += subOrder.compactMap { subBuckets[$0] }.filter { $0.count >= minimum }
        }
        return result
    }

    /// Positions where every URL has a word and no two the same: names standing in for ids
    /// (`/authors/tolkien`, `/authors/pratchett`) under one rel path.
    private static func wordVariablePositions(_ urls: [ObservedURL], minimum: Int) -> Set<Int> {
        guard urls.count >= minimum, let width = urls.first?.segments.count else { return [] }
        var positions = Set<Int>()
        for position in 0..<width {
            let values = urls.map { $0.segments[position] }
            if values.allSatisfy({ SegmentShape($0) == .word && !$0.isEmpty }), Set(values).count == values.count {
                positions.insert(position)
            }
        }
        return positions
    }

    /// The template for URLs of one partition, `nil` when nothing varies or a varying query name
    /// cannot be a template variable.
    private static func template(from members: [(text: String, url: ObservedURL)], group: String) -> InferredTemplate? {
        guard let first = members.first?.url else { return nil }
        let varyingSegments = first.segments.indices.filter { position in
            members.contains { $0.url.segments[position] != first.segments[position] }
        }
        let varyingQuery = first.query.indices.filter { index in
            members.contains { $0.url.query[index].value != first.query[index].value }
        }
        guard !varyingSegments.isEmpty || !varyingQuery.isEmpty else { return nil }
        let queryNames = varyingQuery.map { first.query[$0].name }
        guard queryNames.allSatisfy(isVariableName), Set(first.queryNames).count == first.query.count else { return nil }

        var pathNames: [String] = []
        var suffix = 1
        while pathNames.count < varyingSegments.count {
            let name = suffix == 1 ? "id" : "id\(suffix)"
            if !queryNames.contains(name) { pathNames.append(name) }
            suffix += 1
        }
        var text = first.origin
        if first.hasPath {
            let segments = first.segments.enumerated().map { position, segment in
                varyingSegments.firstIndex(of: position).map { "{\(pathNames[$0])}" } ?? escapedLiteral(segment)
            }
            text += "/" + segments.joined(separator: "/")
        }
        let constantQuery = first.query.indices.filter { !varyingQuery.contains($0) }.map { index in
            let pair = first.query[index]
            return escapedLiteral(pair.name) + (pair.value.map { "=" + escapedLiteral($0) } ?? "")
        }
        if !constantQuery.isEmpty { text += "?" + constantQuery.joined(separator: "&") }
        if !queryNames.isEmpty { text += "{" + (constantQuery.isEmpty ? "?" : "&") + queryNames.joined(separator: ",") + "}" }

        var observed: [String: [String]] = [:]
        for (index, position) in varyingSegments.enumerated() {
            observed[pathNames[index]] = distinct(members.map { $0.url.segments[position] })
        }
        for (index, queryIndex) in varyingQuery.enumerated() {
            observed[queryNames[index]] = distinct(members.map { $0.url.query[queryIndex].value ?? "" })
        }
        return InferredTemplate(
            template: text, variables: pathNames + queryNames, observedValues: observed, exampleURL: members[0].text, group: group)
    }

    private static func distinct(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }

    /// RFC 6570 `varname`: letters, digits, `_`, percent-encoded triplets, and inner dots.
    private static func isVariableName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.hasSuffix(".") && !name.contains("..")
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "%"):
                    true
                default: false
                }
            }
    }

    /// URL text made safe as template literal text: braces are the only characters a URL can
    /// carry that a template would read as syntax.
    private static func escapedLiteral(_ text: String) -> String {
        guard text.contains(where: { $0 == "{" || $0 == "}" }) else { return text }
        return text.replacing("{", with: "%7B").replacing("}", with: "%7D")
    }
}
