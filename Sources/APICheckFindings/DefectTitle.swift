import APICheckModel
import APICheckSpool

/// A defect's title: the problem and its fix, each fact once, true of every occurrence, and free
/// of the API's origin.
///
/// - **True of every occurrence.** Each occurrence has its own title; where they differ, the
///   defect's title names what differs (`rels 'books', 'authors', 'next' and 5 more are bare
///   string hrefs`, `a 200 or 203 with a body`), so no occurrence is described by another's
///   facts. Rules that group by the target (`link-resolves`) name every rel that leads there.
/// - **No origin.** Titles name the rel, the method and paths, never `scheme://host:port` of the
///   API (the origins of the occurrences' URLs and referrers): a JUnit test named after a title
///   keeps its name between a developer's `127.0.0.1:8080`, CI and staging. Offsets into an href
///   (which move with the host's length) and byte counts of bodies (which move with the absolute
///   URLs in them) stay in the findings' messages, out of the title.
enum DefectTitle {
    /// The title of a defect of `occurrences` (one rule, one problem, one place; report order).
    static func title(for occurrences: [Finding]) -> String {
        guard let first = occurrences.first else { return "" }
        var origins = Set<String>()
        for finding in occurrences {
            if let origin = origin(of: finding.url) { origins.insert(origin) }
            if let referrer = finding.referrer, let origin = origin(of: referrer) { origins.insert(origin) }
        }
        return withoutOrigins(untrimmedTitle(first, occurrences), origins: origins)
    }

    private static func untrimmedTitle(_ first: Finding, _ occurrences: [Finding]) -> String {
        switch first.rule {
        case .linkResolves where TargetShape.isStatus(first.actual) && first.expected == "a 2xx response":
            // Grouped by the target (DefectKey): every rel that leads there, one status.
            let rels = distinct(occurrences.lazy.compactMap(\.rel))
            let links = rels.isEmpty ? "links" : "\(list(rels, "and")) links"
            return "\(first.method) \(links) answer \(first.actual ?? ""): \(TargetShape.of(first.url)) must answer 2xx"
        case .methodValid where first.expected?.hasPrefix(stubAnswering) == true:
            // The near-miss report stays in the finding's message (JSON, --verbose).
            let requests = distinct(occurrences.lazy.compactMap { $0.expected.map { String($0.dropFirst(stubAnswering.count)) } })
            let rels = distinct(occurrences.lazy.compactMap(\.rel))
            let link = rels.isEmpty ? "" : " (the \(list(rels, "and")) \(rels.count == 1 ? "link" : "links"))"
            return "no stub answers \(list(requests, "or"))\(link): add \(requests.count == 1 ? "one" : "them"), or fix the link"
        case .bodySchema:
            return merged(distinct(occurrences.lazy.map(occurrenceTitle))) {
                // The values differ in wording too (a string here, an array there): the field and keyword.
                let field = BodySchemaPointer.shape(first.sourcePointer ?? "")
                return "\(field.isEmpty ? "the body" : "the body's " + field) does not match its profile (\(first.expected ?? "its profile")): fix the body, or the profile"
            }
        case .openAPIBody:
            return merged(distinct(occurrences.lazy.map(occurrenceTitle))) {
                let field = BodySchemaPointer.shape(first.sourcePointer ?? "")
                return "\(field.isEmpty ? "the body" : "the body's " + field) does not match the document (\(first.expected ?? "")): fix the body, or the document"
            }
        default:
            return merged(distinct(occurrences.lazy.map(occurrenceTitle)))
        }
    }

    private static let stubAnswering = "a stub answering "

    /// One occurrence's own title.
    private static func occurrenceTitle(_ finding: Finding) -> String {
        switch finding.rule {
        case .typeMatches:
            guard let declared = finding.declaredType, let served = finding.servedType, finding.message.hasPrefix("declared ") else {
                return finding.messageWithEvidence
            }
            return "declared \(declared), served \(served): serve the declared type, or declare the one served"
                + (finding.message.contains("profile") ? " (\(finding.message.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""))" : "")
        case .linkResolves:
            guard let rel = finding.rel, let actual = finding.actual, finding.expected == "a 2xx response" else { return finding.messageWithEvidence }
            // Not a status: no answer at all, which a rel's links share.
            return "\(finding.method) \(rel) links fail (\(actual)): the target must answer 2xx"
        case .methodValid:
            let links = finding.rel.map { "\(finding.method) \($0) links" } ?? "\(finding.method) links"
            switch finding.expected {
            case let expected? where expected.hasPrefix("Allow to list "):
                // Without --unsafe the crawl asked OPTIONS; the answer's Allow lacks the method.
                return "\(links) are not allowed by their target (\(finding.actual ?? "no Allow")): stop advertising the link there, or allow \(finding.method)"
            case "a 2xx response"?:
                return "\(links) answer \(finding.actual ?? "no 2xx"): the target must accept \(finding.method) with 2xx"
            case "a response"?:
                return "\(links) fail (\(finding.actual ?? "no answer")): the target must answer \(finding.method)"
            default:
                return finding.messageWithEvidence
            }
        case .templateValid:
            // The href without the offset: it counts the href's origin, which changes with the host.
            let prefix = "the templated href is not valid RFC 6570: "
            guard let href = finding.actual, finding.message.hasPrefix(prefix) else { return finding.messageWithEvidence }
            var problem = finding.message.dropFirst(prefix.count)
            if problem.hasPrefix("offset "), let colon = problem.range(of: ": ") { problem = problem[colon.upperBound...] }
            return "the templated href '\(href)' is not valid RFC 6570: \(problem.replacingOccurrences(of: "opened here ", with: "opened "))"
        case .contentTypePresent:
            // `a 200 with a 133-byte body`: the size stays in the message.
            return "\(withoutByteCount(finding.messageWithEvidence)): send a Content-Type"
        case .bodySchema:
            // The field with indices as *, what is wrong, and which schema keyword says so.
            let field = BodySchemaPointer.shape(finding.sourcePointer ?? "")
            let problem = finding.actual ?? finding.message
            return "\(field.isEmpty ? "the body" : "the body's " + field): \(problem) (\(finding.expected ?? "its profile")): fix the body, or the profile"
        case .openAPIBody:
            let field = BodySchemaPointer.shape(finding.sourcePointer ?? "")
            return "\(field.isEmpty ? "the body" : "the body's " + field): \(finding.actual ?? finding.message) (\(finding.expected ?? "the document")): fix the body, or the document"
        case .openAPIOperation, .openAPIStatus, .openAPIContentType, .openAPIHeader:
            return "\(finding.message): fix the API, or the document"
        case .typeSyntax, .selfConsistent, .duplicateRel, .formatShape, .crawlLimit, .driftStatus, .driftType, .driftLinks, .driftShape,
            .driftHeader:
            return finding.messageWithEvidence
        case .driftCoverage:
            return "\(finding.message): record it (apicheck crawl --record) or write a stub"
        case .probeServerError:
            return "\(finding.message): answer 2xx to input the API accepts and 4xx to input it refuses, never 5xx"
        case .probeResponseType:
            return "\(finding.message): serve the type the affordance declares"
        case .probeAcceptsInvalid:
            return "\(finding.message): enforce the advertised constraint, or stop advertising it"
        case .probeCreatedResolves:
            return "\(finding.message): Location must name a resource that answers GET"
        }
    }

    // MARK: Merging

    /// One title for several: where they differ only in what ``MessageTemplate`` takes out (URLs,
    /// quoted text, numbers), the differing values are listed in place; a quoted name after a noun
    /// (`rel 'books'`) becomes the plural subject (`rels 'books' and 'authors' are …`). Titles
    /// worded otherwise get `fallback`, or are counted.
    static func merged(_ titles: [String], fallback: (() -> String)? = nil) -> String {
        guard titles.count > 1 else { return titles.first ?? "" }
        let split = titles.map(MessageTemplate.pieces(of:))
        let shape = Self.shape(of: split[0])
        let alike = split.filter { Self.shape(of: $0) == shape }
        let others = split.count - alike.count
        if others > 0, let fallback { return fallback() }

        var segments: [String] = []
        var pluralVerbNext = false
        for (index, piece) in split[0].enumerated() {
            switch piece {
            case .literal(var text):
                if pluralVerbNext { text = pluralVerb(text) }
                pluralVerbNext = false
                segments.append(text)
            case .slot(let kind, let value):
                let values = distinct(alike.lazy.map { pieces -> String in
                    if case .slot(_, let other) = pieces[index] { return other }
                    return value
                })
                guard values.count > 1 else {
                    segments.append(value)
                    continue
                }
                if kind == .quoted, let last = segments.last, let plural = pluralSubject(last) {
                    segments[segments.count - 1] = plural
                    segments.append(list(values, "and"))
                    pluralVerbNext = true
                } else if kind == .number {
                    segments.append(numbers(values))
                } else {
                    segments.append(list(values, "or"))
                }
            }
        }
        let title = segments.joined()
        return others == 0 ? title : "\(title) (and \(others) more worded otherwise)"
    }

    private static func shape(of pieces: [MessageTemplate.Piece]) -> [MessageTemplate.Piece] {
        pieces.map { piece in
            if case .slot(let kind, _) = piece { return .slot(kind, "") }
            return piece
        }
    }

    /// Nouns that name what a quoted name is, singular and plural.
    private static let nouns: [(String, String)] = [
        ("rel", "rels"), ("relationship", "relationships"), ("link", "links"), ("template", "templates"), ("action", "actions"),
        ("anchor", "anchors"), ("embedded", "embedded"), ("member", "members"), ("field", "fields"),
    ]

    /// `rel ` → `rels `, `an embedded ` → `embedded `, `the Siren action ` → `the Siren actions `;
    /// `nil` when the text before a quoted name does not end with such a noun.
    private static func pluralSubject(_ text: String) -> String? {
        guard text.hasSuffix(" ") else { return nil }
        var words = text.dropLast().split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard let last = words.last, let plural = nouns.first(where: { $0.0 == last.lowercased() })?.1 else { return nil }
        words[words.count - 1] = last.first?.isUppercase == true ? plural.prefix(1).uppercased() + plural.dropFirst() : plural
        if words.count >= 2, ["a", "an", "A", "An"].contains(words[words.count - 2]) { words.remove(at: words.count - 2) }
        return words.joined(separator: " ") + " "
    }

    /// The wording after a plural subject: the messages' own phrases first, then `is`/`has`.
    private static let pluralPhrases: [(String, String)] = [
        (" is a bare string href", " are bare string hrefs"),
        (" is a null link: leave the rel out instead", " are null links: leave the rels out instead"),
        (" has an array inside its array", " have an array inside their array"),
        (" must be a link object or an array of them", " must be link objects or arrays of them"),
        (" resource must be an object", " resources must be objects"),
        (" is null: leave it out instead", " are null: leave them out instead"),
        (" must be a resource object or an array of them", " must be resource objects or arrays of them"),
        (" must be an object", " must be objects"),
        (" must be a URL string, a link object or null", " must be URL strings, link objects or null"),
        (" has no target and its resource has no self link", " have no target and their resources have no self link"),
        (" is not a URI reference that resolves", " are not URI references that resolve"),
        (" is ", " are "),
        (" has ", " have "),
    ]

    private static func pluralVerb(_ text: String) -> String {
        for (singular, plural) in pluralPhrases where text.hasPrefix(singular) {
            return plural + text.dropFirst(singular.count)
        }
        return text
    }

    /// `a`, `a or b`, `a, b or c`, `a, b, c or 4 more`.
    static func list(_ values: [String], _ conjunction: String) -> String {
        switch values.count {
        case 0: return ""
        case 1: return values[0]
        case 2...3: return values.dropLast().joined(separator: ", ") + " \(conjunction) " + values[values.count - 1]
        default: return values.prefix(3).joined(separator: ", ") + " \(conjunction) \(values.count - 3) more"
        }
    }

    /// `404 or 500`, `404, 410 or 500`; more as a range, `133 to 9120`.
    private static func numbers(_ values: [String]) -> String {
        let sorted = values.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
        return sorted.count <= 3 ? list(sorted, "or") : "\(sorted[0]) to \(sorted[sorted.count - 1])"
    }

    /// The distinct values, in order of appearance.
    static func distinct<S: Sequence>(_ values: S) -> [String] where S.Element == String {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }

    // MARK: Origins

    /// `scheme://authority` of an absolute http(s) URL, lower-cased; `nil` for anything else.
    static func origin(of url: String) -> String? {
        guard let scheme = url.range(of: "://"), ["http", "https"].contains(url[..<scheme.lowerBound].lowercased()) else { return nil }
        let end = url[scheme.upperBound...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        return url[..<end].lowercased()
    }

    /// `text` with every `origin` taken out of the URLs that start with it (`http://h:1/a` → `/a`,
    /// `http://h:1` → `/`); other origins (a profile's schema host) stay.
    static func withoutOrigins(_ text: String, origins: Set<String>) -> String {
        guard !origins.isEmpty else { return text }
        var text = text
        if text.contains("://") { text = withoutSchemeOrigins(text, origins: origins) }
        // A failure's wording names the server without a scheme (`nothing listens on 127.0.0.1:9`).
        for origin in origins {
            guard let scheme = origin.range(of: "://") else { continue }
            text = replacingAuthority(String(origin[scheme.upperBound...]), in: text, with: "the host")
        }
        return text
    }

    private static func withoutSchemeOrigins(_ text: String, origins: Set<String>) -> String {
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "h" || character == "H", let origin = origins.first(where: { startsWithOrigin(text[index...], $0) }) {
                let after = text.index(index, offsetBy: origin.count)
                if after == text.endIndex || text[after] != "/" { output += "/" }
                index = after
            } else {
                output.append(character)
                index = text.index(after: index)
            }
        }
        return output
    }

    /// Whether `text` starts with `origin` (case-insensitively) and the authority ends there (not
    /// `http://h:10` taken for `http://h:1`).
    private static func startsWithOrigin(_ text: Substring, _ origin: String) -> Bool {
        guard let end = text.index(text.startIndex, offsetBy: origin.count, limitedBy: text.endIndex),
            text[..<end].lowercased() == origin
        else { return false }
        guard end < text.endIndex else { return true }
        let next = text[end]
        return !(next.isLetter || next.isNumber || ".:-@_%".contains(next))
    }

    /// `text` with `authority` (`127.0.0.1:9`, `api.example.com`) replaced where it stands alone.
    private static func replacingAuthority(_ authority: String, in text: String, with replacement: String) -> String {
        guard !authority.isEmpty, text.lowercased().contains(authority) else { return text }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let rest = text[index...]
            let before = output.last
            let standsAlone = before.map { !($0.isLetter || $0.isNumber || ".-@_/%:".contains($0)) } ?? true
            if standsAlone, rest.first?.lowercased().first == authority.first, startsWithOrigin(rest, authority) {
                output += replacement
                index = text.index(index, offsetBy: authority.count)
            } else {
                output.append(text[index])
                index = text.index(after: index)
            }
        }
        return output
    }

    /// `a 200 with a 133-byte body has no …` → `a 200 with a body has no …`.
    private static func withoutByteCount(_ text: String) -> String {
        guard let with = text.range(of: "with a "), let byte = text.range(of: "-byte body", range: with.upperBound..<text.endIndex),
            text[with.upperBound..<byte.lowerBound].allSatisfy({ $0.isASCII && $0.isNumber })
        else { return text }
        return text.replacingCharacters(in: with.upperBound..<byte.upperBound, with: "body")
    }
}
