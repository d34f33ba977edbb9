import APICheckModel
import APICheckSpool

/// The rels followed from the root to a link, e.g. `["library", "movies[3]", "poster"]`
/// (array items carry their index); `[]` for the root itself.
///
/// A path extends its parent's: a link found 4,000 links deep stores its own label and a
/// reference, not 4,000 labels, and the JSON report writes each path once (its `paths` table),
/// so memory and reports grow with the number of links, not with their depth.
///
/// ```swift
/// let movies: RelPath = ["library", "movies[3]"]
/// let poster = movies.appending("poster")
/// poster.description             // "root → library → movies[3] → poster"
/// RelPath.shape(poster)          // "root → library → movies[*] → poster"
/// ```
public struct RelPath: Sendable, Hashable, ExpressibleByArrayLiteral, Sequence, CustomStringConvertible {
    /// One step: its label and the path it extends. Immutable once made (`parent` is cleared
    /// only by `deinit`).
    package final class Node: @unchecked Sendable {
        package private(set) var parent: Node?
        package let label: String
        package let count: Int

        package init(parent: Node?, label: String) {
            self.parent = parent
            self.label = label
            count = (parent?.count ?? 0) + 1
        }

        // Releases an unshared chain iteratively: the default would recurse once per step, and a
        // hostile API's chain can be deeper than the stack.
        deinit {
            var next = parent
            parent = nil
            while isKnownUniquelyReferenced(&next), let node = next {
                next = node.parent
                node.parent = nil
            }
        }
    }

    package let node: Node?

    /// The root's own (empty) path.
    public static let root = RelPath(node: nil)

    package init(node: Node?) { self.node = node }

    /// The path of `labels`, from the root.
    public init(_ labels: some Sequence<String>) {
        var node: Node?
        for label in labels { node = Node(parent: node, label: label) }
        self.node = node
    }

    public init(arrayLiteral labels: String...) { self.init(labels) }

    /// This path and one more step; shares this path's storage.
    public func appending(_ label: String) -> RelPath { RelPath(node: Node(parent: node, label: label)) }

    /// How many steps from the root.
    public var count: Int { node?.count ?? 0 }
    public var isEmpty: Bool { node == nil }
    /// The last step's label; `nil` for the root.
    public var last: String? { node?.label }
    /// The path this one extends; `nil` for the root.
    public var parent: RelPath? { node.map { RelPath(node: $0.parent) } }

    /// The labels from the root (read back by walking the parents: O(depth)).
    public var labels: [String] {
        var labels: [String] = []
        labels.reserveCapacity(count)
        var current = node
        while let step = current {
            labels.append(step.label)
            current = step.parent
        }
        return labels.reversed()
    }

    public func makeIterator() -> IndexingIterator<[String]> { labels.makeIterator() }
    public var underestimatedCount: Int { count }

    public static func == (lhs: RelPath, rhs: RelPath) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var (left, right) = (lhs.node, rhs.node)
        while let leftStep = left, let rightStep = right {
            if leftStep === rightStep { return true }
            if leftStep.label != rightStep.label { return false }
            (left, right) = (leftStep.parent, rightStep.parent)
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        var current = node
        while let step = current {
            hasher.combine(step.label)
            current = step.parent
        }
    }

    /// `root → library → movies[3] → poster`; `root` for the root.
    public var description: String { Self.describe(self) }

    /// ``description`` for people: a path longer than 16 steps shows its first and last 6 with
    /// the count between (`root → next → … 3988 more … → next`), so a report that names a path
    /// per finding stays linear down a deep chain. The JSON report keeps every step.
    public var abbreviatedDescription: String {
        guard count > Self.stepsShownWhole else { return description }
        let labels = labels
        let hidden = labels.count - 2 * Self.stepsShownAtEachEnd
        return (["root"] + labels.prefix(Self.stepsShownAtEachEnd) + ["… \(hidden) more …"] + labels.suffix(Self.stepsShownAtEachEnd))
            .joined(separator: " → ")
    }

    /// ``shape(_:)`` for people, abbreviated as ``abbreviatedDescription`` is (defect places).
    public static func abbreviatedShape(_ path: RelPath) -> String {
        guard path.count > stepsShownWhole else { return shape(path) }
        let labels = path.labels
        let hidden = labels.count - 2 * stepsShownAtEachEnd
        return (["root"] + labels.prefix(stepsShownAtEachEnd).map(stripIndices) + ["… \(hidden) more …"]
            + labels.suffix(stepsShownAtEachEnd).map(stripIndices)).joined(separator: " → ")
    }

    /// The deepest path a report is read with (and `crawl --max-depth` allows): a crafted
    /// report could otherwise name a path millions of steps deep from every check.
    public static let maximumDepth = 10_000

    private static let stepsShownWhole = 16
    private static let stepsShownAtEachEnd = 6

    /// `["library", "movies[3]", "poster"]` → `root → library → movies[3] → poster`; `[]` → `root`.
    public static func describe(_ path: RelPath) -> String {
        (["root"] + path.labels).joined(separator: " → ")
    }

    /// The rel path with indices stripped: `["library", "movies[9].self", "poster"]` →
    /// `root → library → movies[*].self → poster`.
    public static func shape(_ path: RelPath) -> String {
        (["root"] + path.labels.map(stripIndices)).joined(separator: " → ")
    }

    package static func stripIndices(_ label: String) -> String {
        guard label.utf8.contains(UInt8(ascii: "[")) else { return label }
        var output = ""
        var inIndex = false
        var digits = ""
        for character in label {
            if inIndex {
                if character == "]" {
                    output += digits.allSatisfy(\.isNumber) && !digits.isEmpty ? "[*]" : "[\(digits)]"
                    inIndex = false
                    digits = ""
                } else {
                    digits.append(character)
                }
            } else if character == "[" {
                inIndex = true
            } else {
                output.append(character)
            }
        }
        if inIndex { output += "[" + digits }
        return output
    }
}
