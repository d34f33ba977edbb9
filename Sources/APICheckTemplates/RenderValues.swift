import APICheckJSON
import APICheckModel
import Foundation
import Mustache

/// Bounds one render: the bytes it may produce and the section iterations it may run.
///
/// swift-mustache renders synchronously and cannot be interrupted, so the values we hand it enforce
/// the bound from inside: text values charge their length before they render (and render nothing
/// once the budget is spent), arrays charge each iteration what one pass over the largest section
/// that may iterate them can emit (and stop iterating once it is spent), and our content types
/// charge the growth escaping causes. The template's own text is charged before rendering starts.
///
/// `@unchecked Sendable` only so it can be a task-local: one instance belongs to one synchronous
/// render on one thread.
final class RenderBudget: @unchecked Sendable {
    /// The render in progress on this thread or task, for the content types.
    @TaskLocal static var current: RenderBudget?

    enum Overrun {
        case bytes, iterations
    }

    let byteLimit: Int
    let iterationLimit: Int
    private(set) var bytes = 0
    private(set) var iterations = 0
    private(set) var overrun: Overrun?

    init(byteLimit: Int, iterationLimit: Int) {
        self.byteLimit = byteLimit
        self.iterationLimit = iterationLimit
    }

    /// Adds `count` bytes; `false` once the budget is spent.
    @discardableResult
    func charge(_ count: Int) -> Bool {
        guard overrun == nil else { return false }
        bytes += count
        if bytes > byteLimit { overrun = .bytes }
        return overrun == nil
    }

    /// Counts one section iteration that may emit `cost` bytes by itself; `false` once spent.
    func iterate(cost: Int) -> Bool {
        guard overrun == nil else { return false }
        iterations += 1
        if iterations > iterationLimit {
            overrun = .iterations
            return false
        }
        return charge(cost)
    }
}

/// Text in the context (strings, JSON numbers as written, header and query values).
struct TextValue: MustacheCustomRenderable, MustacheParent, MustacheTransformable {
    let text: String
    let budget: RenderBudget

    var renderText: String { budget.charge(text.utf8.count) ? text : "" }
    var isNull: Bool { false }

    /// Text has no members (without this, swift-mustache would reflect on the struct).
    func child(named: String) -> Any? { nil }

    /// swift-mustache's string transforms (`uppercased`, `lowercased`, `capitalized`, `reversed`, `empty`).
    func transform(_ name: String) -> Any? {
        switch text.transform(name) {
        case let string as String: TextValue(text: string, budget: budget)
        case let substring as Substring: TextValue(text: String(substring), budget: budget)
        case let other: other
        }
    }
}

/// A JSON `null` inside an array: renders as nothing, is falsy in sections.
struct NullValue: MustacheCustomRenderable, MustacheParent {
    var renderText: String { "" }
    var isNull: Bool { true }
    func child(named: String) -> Any? { nil }
}

/// Named members: the context root, `request`, its parameter, query and header maps, JSON objects.
/// Renders as nothing when used as a value.
struct ObjectValue: MustacheCustomRenderable, MustacheParent, MustacheTransformable {
    /// Keys lower-cased when `caseInsensitive`.
    let members: [String: Any]
    var caseInsensitive = false

    var renderText: String { "" }
    var isNull: Bool { false }

    func child(named name: String) -> Any? {
        members[caseInsensitive ? name.lowercased() : name]
    }

    /// `count` and `empty`.
    func transform(_ name: String) -> Any? {
        switch name {
        case "count": members.count
        case "empty": members.isEmpty
        default: nil
        }
    }
}

/// A JSON array: iterated by sections under the budget, indexable as `items.0`.
/// Renders as nothing when used as a value.
struct ArrayValue: MustacheSequence, MustacheCustomRenderable, MustacheParent, MustacheTransformable {
    let elements: [Any]
    /// Bytes one iteration may emit by itself (see ``RenderBudget``).
    let iterationCost: Int
    let budget: RenderBudget

    var renderText: String { "" }
    var isNull: Bool { false }

    struct Iterator: IteratorProtocol {
        let array: ArrayValue
        var index = 0

        mutating func next() -> Any? {
            guard index < array.elements.count, array.budget.iterate(cost: array.iterationCost) else { return nil }
            defer { index += 1 }
            return array.elements[index]
        }
    }

    func makeIterator() -> Iterator { Iterator(array: self) }

    func child(named name: String) -> Any? {
        guard let index = Int(name), elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// swift-mustache's array transforms except `sorted`: `first`, `last`, `reversed`, `count`, `empty`.
    func transform(_ name: String) -> Any? {
        switch name {
        case "first": elements.first
        case "last": elements.last
        case "reversed": ArrayValue(elements: elements.reversed(), iterationCost: iterationCost, budget: budget)
        case "count": elements.count
        case "empty": elements.isEmpty
        default: nil
        }
    }
}

/// `request`: built when rendering starts; the body is parsed as JSON only if a template asks.
final class RequestValue: MustacheCustomRenderable, MustacheParent {
    private let request: StubRequest
    private let members: [String: Any]
    private let budget: RenderBudget
    private let sectionCosts: [String: Int]
    private let maximumSectionCost: Int
    private lazy var json: Any? = parseJSON()
    private lazy var body: Any? = String(validating: request.body, as: UTF8.self).map { TextValue(text: $0, budget: budget) }

    /// JSON bodies nest at most this deep here (the render walks them recursively).
    static let maximumJSONDepth = 64

    init(_ context: TemplateContext, budget: RenderBudget, sectionCosts: [String: Int], maximumSectionCost: Int) {
        let request = context.request
        self.request = request
        self.budget = budget
        self.sectionCosts = sectionCosts
        self.maximumSectionCost = maximumSectionCost
        func text(_ value: String) -> TextValue { TextValue(text: value, budget: budget) }
        var query: [String: Any] = [:]
        for item in request.query where query[item.name] == nil {
            query[item.name] = text(item.value ?? "")
        }
        var headers: [String: Any] = [:]
        for header in request.headers where headers[header.name.lowercased()] == nil {
            headers[header.name.lowercased()] = text(header.value)
        }
        members = [
            "method": text(request.method),
            "path": text(request.path),
            "pathParams": ObjectValue(members: context.pathParameters.mapValues(text)),
            "query": ObjectValue(members: query),
            "headers": ObjectValue(members: headers, caseInsensitive: true),
        ]
    }

    var renderText: String { "" }
    var isNull: Bool { false }

    func child(named name: String) -> Any? {
        switch name {
        case "json": json
        case "body": body
        default: members[name]
        }
    }

    /// The body as JSON when it is declared JSON (`application/json`, `…+json`) or undeclared and parses.
    private func parseJSON() -> Any? {
        guard !request.body.isEmpty else { return nil }
        if let contentType = request.headers.value(named: "Content-Type"), !ContentTypeHeader.isJSON(contentType) {
            return nil
        }
        guard let value = try? JSONParser(maximumDepth: Self.maximumJSONDepth).parseValue([UInt8](request.body)) else { return nil }
        return JSONRenderValues(budget: budget, sectionCosts: sectionCosts, maximumSectionCost: maximumSectionCost).convert(value, key: "json")
    }
}

/// JSON (request bodies, stub variables) as render values.
struct JSONRenderValues {
    let budget: RenderBudget
    let sectionCosts: [String: Int]
    let maximumSectionCost: Int

    /// Objects become ``ObjectValue`` (the first of repeated keys wins, `null` members are absent),
    /// arrays ``ArrayValue`` (`null` elements are ``NullValue``), numbers their lexeme, booleans `Bool`.
    func convert(_ value: JSONValue, key: String?) -> Any? {
        switch value {
        case .null:
            return nil
        case .bool(let flag):
            return flag
        case .number(let lexeme):
            return TextValue(text: lexeme, budget: budget)
        case .string(let string):
            return TextValue(text: string, budget: budget)
        case .array(let elements):
            // Arrays under a key are iterated by sections named after it; nested arrays by any section.
            let cost = key.flatMap { sectionCosts[$0] } ?? maximumSectionCost
            return ArrayValue(elements: elements.map { convert($0, key: nil) ?? NullValue() }, iterationCost: cost, budget: budget)
        case .object(let members):
            var converted: [String: Any] = [:]
            var seen = Set<String>()
            for member in members where seen.insert(member.key).inserted {
                if let value = convert(member.value, key: member.key) { converted[member.key] = value }
            }
            return ObjectValue(members: converted)
        }
    }
}

extension TemplateContext {
    /// The object templates render against: `request`, `baseURL` and the variables (the built-in
    /// names win over variables of the same name).
    func renderRoot(variables: [String: JSONValue], compiled: CompiledTemplate, budget: RenderBudget) -> ObjectValue {
        let json = JSONRenderValues(budget: budget, sectionCosts: compiled.sectionCosts, maximumSectionCost: compiled.maximumSectionCost)
        var members: [String: Any] = [:]
        for (name, value) in variables {
            if let converted = json.convert(value, key: name) { members[name] = converted }
        }
        members["baseURL"] = TextValue(text: baseURL, budget: budget)
        members["request"] = RequestValue(
            self, budget: budget, sectionCosts: compiled.sectionCosts, maximumSectionCost: compiled.maximumSectionCost
        )
        return ObjectValue(members: members)
    }
}
