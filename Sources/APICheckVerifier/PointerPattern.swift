import APICheckFindings
import APICheckCrawler
import APICheckHypermedia

/// An `--ignore` pattern: an RFC 6901 JSON pointer whose segment `*` matches any one key or
/// index. A pattern ignores what it names and everything below it.
///
/// ```swift
/// let patterns = PointerPatterns([PointerPattern("/items/*/updatedAt")!])
/// patterns.cover(["items", "3", "updatedAt"])            // true
/// patterns.cover(["items", "*", "updatedAt", "zone"])    // true: below it
/// patterns.cover(["items", "3"])                         // false: above it
/// ```
struct PointerPattern: Sendable, Hashable {
    /// Unescaped reference tokens; `nil` stands for the wildcard `*`.
    let tokens: [String?]

    /// The pattern, or `nil` when `text` is not a JSON pointer (not empty and not starting
    /// with `/`, or `~` followed by anything but `0` or `1`).
    init?(_ text: String) {
        guard !text.isEmpty else {
            tokens = []
            return
        }
        guard text.hasPrefix("/") else { return nil }
        var tokens: [String?] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if raw == "*" {
                tokens.append(nil)
                continue
            }
            guard let token = Self.unescape(raw) else { return nil }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    /// This pattern with every index made a wildcard: `/_links/item/3` → `/_links/item/*`, the
    /// pointer the merged shape has for it.
    var withIndicesAsWildcards: PointerPattern {
        PointerPattern(tokens: tokens.map { token in
            guard let token, !token.isEmpty, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return token }
            return nil
        })
    }

    private init(tokens: [String?]) {
        self.tokens = tokens
    }

    /// `~1` is `/`, `~0` is `~` (RFC 6901 §4); any other `~` makes the pointer invalid.
    private static func unescape(_ raw: Substring) -> String? {
        guard raw.contains("~") else { return String(raw) }
        var result = ""
        var iterator = raw.makeIterator()
        while let character = iterator.next() {
            guard character == "~" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "0": result.append("~")
            case "1": result.append("/")
            default: return nil
            }
        }
        return result
    }
}

/// A set of ``PointerPattern``s as a trie, so that a body's thousands of link objects can be
/// left out of the shape without testing every node against every one of them.
struct PointerPatterns: Sendable, Hashable {
    private struct Node: Sendable, Hashable {
        var children: [String: Int] = [:]
        var wildcard: Int?
        var isEnd = false
    }

    private var nodes = [Node()]

    /// The patterns.
    init(_ patterns: [PointerPattern] = []) {
        for pattern in patterns { insert(pattern) }
    }

    /// Adds `pattern`.
    mutating func insert(_ pattern: PointerPattern) {
        var current = 0
        for token in pattern.tokens {
            if nodes[current].isEnd { return }  // a shorter pattern covers it already
            let next: Int? = token.map { nodes[current].children[$0] } ?? nodes[current].wildcard
            if let next {
                current = next
                continue
            }
            nodes.append(Node())
            if let token { nodes[current].children[token] = nodes.count - 1 } else { nodes[current].wildcard = nodes.count - 1 }
            current = nodes.count - 1
        }
        nodes[current].isEnd = true
    }

    /// Whether some pattern names the location `path` (unescaped tokens; `*` for the merged
    /// elements of an array) or lies above it. A concrete index in a pattern does not match
    /// merged elements: `/items/0` cannot ignore part of every element.
    func cover(_ path: some Collection<String>) -> Bool {
        cover(ArraySlice(path), from: 0)
    }

    private func cover(_ path: ArraySlice<String>, from index: Int) -> Bool {
        let node = nodes[index]
        if node.isEnd { return true }
        guard let token = path.first else { return false }
        if let next = node.children[token], cover(path.dropFirst(), from: next) { return true }
        if let next = node.wildcard, cover(path.dropFirst(), from: next) { return true }
        return false
    }
}
