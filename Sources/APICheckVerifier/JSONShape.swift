import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckJSON

/// The `drift-shape` rule: which JSON pointers a body has and with which JSON types, the
/// elements of every array merged into one shape under the segment `*` (`/items/*/id`).
///
/// Shapes are trees, not maps of pointer strings: a hostile body with one long key above a
/// million leaves would otherwise repeat that key a million times. Pointers are built only for
/// the differences, and only the first ``maximumDrifts`` (by pointer) are kept.
enum JSONShape {
    /// Deeper parts of a body are not compared; no API representation nests this deep.
    static let maximumDepth = 64
    /// Differences reported per response; the rest are counted in one final drift.
    static let maximumDrifts = 50

    /// The shape differences between two JSON bodies, sorted by pointer, at most
    /// ``maximumDrifts`` of them plus one that counts the rest.
    static func drifts(expected: JSONBody, live: JSONBody, ignoring patterns: PointerPatterns, comparingValues: Bool) -> [Drift] {
        guard !patterns.cover([String]()) else { return [] }
        var differences = ShapeDifferences(limit: maximumDrifts)
        var path: [String] = []
        compare(expected.shape, live.shape, path: &path, into: &differences)
        if comparingValues {
            compareValues(expected.value, live.value, path: &path, ignoring: patterns, into: &differences)
        }
        var drifts = differences.kept.map(\.drift)
        if differences.total > differences.kept.count {
            drifts.append(Drift(rule: .driftShape, message: "… and \(differences.total - differences.kept.count) more shape differences"))
        }
        return drifts
    }

    /// Types, then members and elements where both sides have them. A member under a node
    /// whose type changed, or missing along with its parent, is not reported again: the
    /// parent's drift says it.
    private static func compare(_ stub: ShapeNode, _ live: ShapeNode, path: inout [String], into differences: inout ShapeDifferences) {
        if stub.kinds != live.kinds {
            differences.add(ShapeDifference(pointer: JSONPointer.boundedPointer(path), kind: .typeChanged, expected: "\(stub.kinds)", actual: "\(live.kinds)"))
        }
        if stub.kinds.contains(.object) && live.kinds.contains(.object) {
            for key in Set(stub.members.keys).union(live.members.keys) {
                path.append(key)
                defer { path.removeLast() }
                switch (stub.members[key], live.members[key]) {
                case (let stubMember?, let liveMember?):
                    compare(stubMember, liveMember, path: &path, into: &differences)
                case (let stubMember?, nil):
                    differences.add(ShapeDifference(pointer: JSONPointer.boundedPointer(path), kind: .missingLive, expected: "\(stubMember.kinds)"))
                case (nil, let liveMember?):
                    differences.add(ShapeDifference(pointer: JSONPointer.boundedPointer(path), kind: .newLive, actual: "\(liveMember.kinds)"))
                case (nil, nil):
                    break
                }
            }
        }
        // An empty array has no element shape and matches any.
        if let stubElements = stub.elements, let liveElements = live.elements {
            path.append("*")
            compare(stubElements, liveElements, path: &path, into: &differences)
            path.removeLast()
        }
    }

    /// Leaf values at concrete pointers, where both sides have a leaf of the same type (a
    /// changed type is the shape's drift already).
    private static func compareValues(
        _ stub: JSONValue, _ live: JSONValue, path: inout [String], ignoring patterns: PointerPatterns,
        into differences: inout ShapeDifferences
    ) {
        switch (stub, live) {
        case (.object(let stubMembers), .object(let liveMembers)):
            guard path.count < maximumDepth else { return }
            var liveValues: [String: JSONValue] = [:]
            for member in liveMembers where liveValues[member.key] == nil { liveValues[member.key] = member.value }
            var seen = Set<String>()
            for member in stubMembers where seen.insert(member.key).inserted {
                guard let liveValue = liveValues[member.key] else { continue }
                path.append(member.key)
                if !patterns.cover(path) { compareValues(member.value, liveValue, path: &path, ignoring: patterns, into: &differences) }
                path.removeLast()
            }
        case (.array(let stubElements), .array(let liveElements)):
            guard path.count < maximumDepth else { return }
            for index in 0..<min(stubElements.count, liveElements.count) {
                path.append(String(index))
                if !patterns.cover(path) {
                    compareValues(stubElements[index], liveElements[index], path: &path, ignoring: patterns, into: &differences)
                }
                path.removeLast()
            }
        case (.string, .string), (.number, .number), (.bool, .bool):
            guard stub != live else { return }
            differences.add(ShapeDifference(
                pointer: JSONPointer.boundedPointer(path), kind: .valueChanged, expected: leafText(stub), actual: leafText(live)))
        default:
            return
        }
    }

    private static func leafText(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "\"" + text.excerpt(80) + "\""
        case .number(let lexeme): lexeme.excerpt(80)
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .array, .object: ""
        }
    }
}

/// A body that parsed as JSON, and its shape without the ignored pointers.
struct JSONBody {
    let value: JSONValue
    let shape: ShapeNode

    init(_ value: JSONValue, ignoring patterns: PointerPatterns) {
        self.value = value
        shape = ShapeNode(value, ignoring: patterns)
    }
}

/// The JSON types seen at one pointer (more than one when array elements differ).
struct JSONKinds: OptionSet, Hashable, CustomStringConvertible {
    let rawValue: UInt8

    static let object = JSONKinds(rawValue: 1 << 0)
    static let array = JSONKinds(rawValue: 1 << 1)
    static let string = JSONKinds(rawValue: 1 << 2)
    static let number = JSONKinds(rawValue: 1 << 3)
    static let boolean = JSONKinds(rawValue: 1 << 4)
    static let null = JSONKinds(rawValue: 1 << 5)

    private static let names: [(JSONKinds, String)] = [
        (.object, "object"), (.array, "array"), (.string, "string"), (.number, "number"), (.boolean, "boolean"), (.null, "null"),
    ]

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(of value: JSONValue) {
        switch value {
        case .object: self = .object
        case .array: self = .array
        case .string: self = .string
        case .number: self = .number
        case .bool: self = .boolean
        case .null: self = .null
        }
    }

    /// `number`, or `number or null`.
    var description: String {
        Self.names.filter { contains($0.0) }.map(\.1).joined(separator: " or ")
    }
}

/// One pointer of a shape: its types, its members, and the merged shape of its elements.
/// A class so that merging many elements into one node does not copy subtrees; it never
/// leaves the comparison.
final class ShapeNode {
    var kinds: JSONKinds = []
    var members: [String: ShapeNode] = [:]
    /// `nil` when no element was seen (not an array, or only empty arrays).
    var elements: ShapeNode?

    private init() {}

    /// The shape of `value`, without what `patterns` cover and below ``JSONShape/maximumDepth``.
    convenience init(_ value: JSONValue, ignoring patterns: PointerPatterns) {
        self.init()
        var path: [String] = []
        merge(value, path: &path, ignoring: patterns)
    }

    /// Whether the shape has a node at `tokens`, an index standing for the merged elements
    /// (a member named like an index wins).
    func hasNode(at tokens: some Collection<String>) -> Bool {
        var node = self
        for token in tokens {
            if let member = node.members[token] {
                node = member
            } else if let elements = node.elements, !token.isEmpty, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                node = elements
            } else {
                return false
            }
        }
        return true
    }

    private func merge(_ value: JSONValue, path: inout [String], ignoring patterns: PointerPatterns) {
        kinds.insert(JSONKinds(of: value))
        guard path.count < JSONShape.maximumDepth else { return }
        switch value {
        case .object(let objectMembers):
            for member in objectMembers {
                path.append(member.key)
                defer { path.removeLast() }
                guard !patterns.cover(path) else { continue }
                let child = members[member.key] ?? ShapeNode()
                members[member.key] = child
                child.merge(member.value, path: &path, ignoring: patterns)
            }
        case .array(let values):
            path.append("*")
            defer { path.removeLast() }
            guard !values.isEmpty, !patterns.cover(path) else { return }
            let child = elements ?? ShapeNode()
            elements = child
            for element in values { child.merge(element, path: &path, ignoring: patterns) }
        case .string, .number, .bool, .null:
            return
        }
    }
}

/// One difference, before it becomes a ``Drift``: messages are written only for the ones kept.
struct ShapeDifference {
    enum Kind: Int, Comparable {
        case missingLive, newLive, typeChanged, valueChanged

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    var pointer: String
    var kind: Kind
    var expected: String?
    var actual: String?

    static func precedes(_ lhs: ShapeDifference, _ rhs: ShapeDifference) -> Bool {
        if lhs.pointer != rhs.pointer { return lhs.pointer < rhs.pointer }
        if lhs.kind != rhs.kind { return lhs.kind < rhs.kind }
        return (lhs.expected ?? "", lhs.actual ?? "") < (rhs.expected ?? "", rhs.actual ?? "")
    }

    var drift: Drift {
        let place = pointer.isEmpty ? "the document" : pointer
        let message =
            switch kind {
            case .missingLive: "\(place) is in the stub but not in the live response"
            case .newLive: "\(place) is in the live response but not in the stub"
            case .typeChanged, .valueChanged: "\(place) was \(expected ?? ""), is now \(actual ?? "")"
            }
        return Drift(rule: .driftShape, message: message, expected: expected, actual: actual, pointer: pointer)
    }
}

/// The first `limit` differences by pointer, and how many there were: a hostile body cannot
/// make the report, or the memory held for it, grow with its size.
struct ShapeDifferences {
    let limit: Int
    private(set) var kept: [ShapeDifference] = []
    private(set) var total = 0

    init(limit: Int) {
        self.limit = limit
    }

    mutating func add(_ difference: ShapeDifference) {
        total += 1
        if kept.count == limit {
            guard let last = kept.last, ShapeDifference.precedes(difference, last) else { return }
            kept.removeLast()
        }
        let index = kept.firstIndex { ShapeDifference.precedes(difference, $0) } ?? kept.endIndex
        kept.insert(difference, at: index)
    }
}
