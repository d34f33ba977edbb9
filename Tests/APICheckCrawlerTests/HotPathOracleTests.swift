import APICheckVerifier
import Testing

@testable import APICheckCrawler
@testable import APICheckHypermedia

// The crawl's hot paths, rewritten for speed, held to the plain definitions they replaced.

/// `duplicate-rel`'s grouping, held to the plain definition it replaced (a dictionary of groups,
/// a set of declarations, a set of attribute variants) over random pages of links.
@Suite struct DuplicatedRelsTests {
    private static func reference(_ links: [Link]) -> [(String, [Link])] {
        func isArrayElement(_ link: Link) -> Bool {
            guard let last = link.source.path.split(separator: "/").last else { return false }
            return last.allSatisfy(\.isNumber)
        }
        func isSirenSubEntity(_ link: Link) -> Bool {
            guard link.format == .sirenLink else { return false }
            let tokens = link.source.path.split(separator: "/")
            return tokens.count >= 2 && tokens[tokens.count - 2] == "entities"
        }
        func declaration(_ link: Link) -> String {
            guard isArrayElement(link), link.format == .hal || link.format == .plainJSON || isSirenSubEntity(link) else { return link.source.description }
            return String(link.source.path[..<(link.source.path.lastIndex(of: "/") ?? link.source.path.endIndex)])
        }
        var byRel: [String: [Link]] = [:]
        var order: [String] = []
        for link in links {
            if byRel[link.rel] == nil { order.append(link.rel) }
            byRel[link.rel, default: []].append(link)
        }
        return order.compactMap { rel in
            guard let group = byRel[rel], group.count > 1 else { return nil }
            let declarations = Set(group.map(declaration))
            guard declarations.count > 1 || group.allSatisfy({ declaration($0) == declaration(group[0]) && !isArrayElement($0) }) else { return nil }
            let variants = Set(group.map { [$0.href, $0.type ?? "", $0.method, $0.title ?? "", $0.name ?? "", $0.profile ?? ""] })
            return variants.count > 1 ? (rel, group) : nil
        }
    }

    @Test func groupsAsThePlainDefinitionDoes() {
        var generator = SystemRandomNumberGenerator()
        let paths = ["/_links/item/0", "/_links/item/1", "/_links/item", "/_links/next/", "/entities/3/links/0", "/entities/٣", "", "/", "/a//", "/links/x1"]
        let formats: [LinkFormat] = [.hal, .plainJSON, .sirenLink, .linkHeader]
        var duplicatesSeen = 0
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...(Bool.random(using: &generator) ? 8 : 40), using: &generator)
            let links = (0..<count).map { _ in
                Link(
                    context: "http://x/", base: "http://x/", rel: ["item", "next", "related"].randomElement(using: &generator)!,
                    href: ["/a", "/b"].randomElement(using: &generator)!, target: .url("http://x/a"),
                    method: ["GET", "GET", "POST"].randomElement(using: &generator)!,
                    type: [nil, "", "application/json"].randomElement(using: &generator)!, title: [nil, "t"].randomElement(using: &generator)!,
                    name: [nil, nil, "n"].randomElement(using: &generator)!, profile: [nil, nil, "p"].randomElement(using: &generator)!,
                    format: formats.randomElement(using: &generator)!, source: .jsonPointer(paths.randomElement(using: &generator)!))
            }
            let expected = Self.reference(links)
            let actual = ContractRules.duplicatedRels(links)
            duplicatesSeen += expected.count
            #expect(actual.map(\.0) == expected.map(\.0) && actual.map(\.1) == expected.map(\.1), "for the links \(links)")
        }
        #expect(duplicatesSeen > 100)
    }
}

/// The pointers hypermedia formats have read, held to the token-splitting definition.
@Suite struct FormatAreasTests {
    private static func reference(_ links: [Link]) -> Set<String> {
        let formatKeys: Set<String> = ["links", "actions", "entities", "relationships"]
        var areas = Set<String>()
        for link in links where link.source.kind == .jsonPointer {
            areas.insert(link.source.path)
            let tokens = link.source.path.split(separator: "/", omittingEmptySubsequences: false)
            if let index = tokens.firstIndex(where: { formatKeys.contains(String($0)) }) {
                areas.insert(tokens[...index].joined(separator: "/"))
            }
        }
        return areas
    }

    @Test func readsTheSameAreasAsTheTokenSplittingDefinition() {
        var generator = SystemRandomNumberGenerator()
        let tokens = ["", "links", "actions", "entities", "relationships", "data", "0", "links2", "é", "_links"]
        var areasSeen = 0
        for _ in 0..<2_000 {
            let links = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                let path = (0..<Int.random(in: 0...5, using: &generator)).map { _ in tokens.randomElement(using: &generator)! }.joined(separator: "/")
                let source: LinkSource = Bool.random(using: &generator) ? .jsonPointer(path) : .xmlPath(path)
                return Link(context: "http://x/", base: "http://x/", rel: "item", href: "/a", target: .url("http://x/a"), format: .sirenLink, source: source)
            }
            let expected = Self.reference(links)
            areasSeen += expected.count
            #expect(JSONLinkWalker.formatAreas(of: links) == expected, "for the links \(links)")
        }
        #expect(areasSeen > 1_000)
    }
}
