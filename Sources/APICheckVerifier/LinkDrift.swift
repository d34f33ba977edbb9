import APICheckFindings
import APICheckCrawler
import APICheckHypermedia


/// The `drift-links` rule: the rels a stub advertises against the live ones, rel by rel.
///
/// Hrefs are not compared (ids and hosts legitimately differ between a recording and the live
/// API); what a client relies on is: that the rel is there, its method, its declared type and
/// whether it is a template.
enum LinkDrift {
    /// What is compared of every link of one rel.
    private struct Traits {
        var methods: Set<String> = []
        /// Normalised declared types; `nil` for links that declare none.
        var types: Set<String?> = []
        var templated: Set<Bool> = []
        /// The first href, to show where a rel only one side has pointed.
        var firstHref: String?

        mutating func add(_ link: Link) {
            methods.insert(link.method.uppercased())
            types.insert(link.type.map(LinkDrift.normalisedType))
            templated.insert(link.isTemplated)
            if firstHref == nil { firstHref = link.href }
        }
    }

    /// The drifts between two extractions of the same request, sorted by rel, then kind
    /// (removed, added, method, type, templated). `expectedJSON` and `liveJSON` are the parsed
    /// bodies, when JSON: a link of a nested resource is compared only when the other side's
    /// shape has that resource too (any index standing for any element), so an empty list live
    /// is not a pile of missing rels; the shape rule says whether the list should be empty.
    static func compare(
        expected: LinkExtraction, live: LinkExtraction, expectedJSON: JSONBody?, liveJSON: JSONBody?, ignoring patterns: PointerPatterns
    ) -> [Drift] {
        // A cut-short extraction would make every rel after the cut look removed.
        guard !expected.isTruncated, !live.isTruncated else { return [] }
        let stub = traitsByRel(expected.links, otherSide: liveJSON, ignoring: patterns)
        let served = traitsByRel(live.links, otherSide: expectedJSON, ignoring: patterns)
        var drifts: [Drift] = []
        for rel in Set(stub.keys).union(served.keys).sorted() {
            let shown = "rel '\(rel.excerpt(200))'"
            switch (stub[rel], served[rel]) {
            case (let stubTraits?, nil):
                drifts.append(Drift(
                    rule: .driftLinks, message: "\(shown) is advertised by the stub but not by the live API",
                    expected: stubTraits.firstHref?.excerpt(200), pointer: rel))
            case (nil, let liveTraits?):
                drifts.append(Drift(
                    rule: .driftLinks, message: "\(shown) is advertised by the live API but not by the stub",
                    actual: liveTraits.firstHref?.excerpt(200), pointer: rel))
            case (let stubTraits?, let liveTraits?):
                if stubTraits.methods != liveTraits.methods {
                    let (before, after) = (list(stubTraits.methods), list(liveTraits.methods))
                    drifts.append(Drift(
                        rule: .driftLinks, message: "\(shown) has method \(before) in the stub, \(after) in the live API",
                        expected: before, actual: after, pointer: rel))
                }
                if stubTraits.types != liveTraits.types {
                    let (before, after) = (list(stubTraits.types.map { $0 ?? "no type" }), list(liveTraits.types.map { $0 ?? "no type" }))
                    drifts.append(Drift(
                        rule: .driftLinks, message: "\(shown) declares \(before) in the stub, \(after) in the live API",
                        expected: before, actual: after, pointer: rel))
                }
                if stubTraits.templated != liveTraits.templated {
                    let (before, after) = (templating(stubTraits.templated), templating(liveTraits.templated))
                    drifts.append(Drift(
                        rule: .driftLinks, message: "\(shown) is \(before) in the stub, \(after) in the live API",
                        expected: before, actual: after, pointer: rel))
                }
            case (nil, nil):
                break
            }
        }
        return drifts
    }

    /// Links grouped by rel (the compact HAL CURIE when there is one: clients key on it, and
    /// the documentation URL it expands to may name another host).
    private static func traitsByRel(_ links: [Link], otherSide: JSONBody?, ignoring patterns: PointerPatterns) -> [String: Traits] {
        var traits: [String: Traits] = [:]
        for link in links {
            if link.source.kind == .jsonPointer {
                if let tokens = tokens(ofPointer: link.source.path), patterns.cover(tokens) { continue }
                if !link.owner.isEmpty, let otherSide, !otherSide.shape.hasNode(at: tokens(ofPointer: link.owner) ?? []) { continue }
            }
            traits[link.compactRel ?? link.rel, default: Traits()].add(link)
        }
        return traits
    }

    private static func tokens(ofPointer pointer: String) -> ArraySlice<String>? {
        guard let pattern = PointerPattern(pointer) else { return nil }
        // A link's pointer has no wildcards; a key written `*` is that key.
        return ArraySlice(pattern.tokens.map { $0 ?? "*" })
    }

    /// Type and subtype lower-cased, parameters dropped but profile, as `type-matches` compares.
    private static func normalisedType(_ type: String) -> String {
        guard let mediaType = try? MediaType(parsing: type) else { return type.trimmedASCIIWhitespace.excerpt(200) }
        return mediaType.profile.map { "\(mediaType.essence); profile=\"\($0)\"" } ?? mediaType.essence
    }

    private static func list(_ values: some Collection<String>) -> String {
        values.sorted().map { $0.excerpt(200) }.joined(separator: ", ")
    }

    private static func templating(_ values: Set<Bool>) -> String {
        switch (values.contains(true), values.contains(false)) {
        case (true, false): "templated"
        case (false, true): "not templated"
        default: "templated in some links, not in others"
        }
    }
}
