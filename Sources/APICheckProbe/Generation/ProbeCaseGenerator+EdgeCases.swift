import APICheckJSON
import APICheckSchema

extension ProbeCaseGenerator {
    /// Up to `limit` edge cases, each changing one thing from a valid base body: a field missing,
    /// of the wrong type, at and past its bounds, empty, very long, in awkward Unicode, at the
    /// limits of Int64 and Double, arrays past `minItems`/`maxItems` or with an item of the wrong
    /// type; then the body as a whole (unknown field, duplicate key, deep
    /// nesting, missing or wrong `Content-Type`).
    ///
    /// Cases are taken round-robin, one per field per round and the whole body last, each field's
    /// own list ordered from the most revealing (missing required, wrong type, past a bound) to
    /// the least: a budget as small as the number of fields still touches every field. Cases
    /// that would send the same bytes as an earlier one (or as the base) are left out.
    ///
    /// `base`, when given, is the body edge cases start from instead of the generated one: the
    /// one the server accepted, so that each case is refused (or not) for what it changes alone.
    public func edgeCases(limit: Int, from given: JSONValue? = nil) -> [ProbeCase] {
        guard limit > 0 else { return [] }
        let base = given ?? baseBody()
        let fields = fields()
        var queues: [[EdgeDraft]]
        if fields.isEmpty {
            queues = [drafts(for: FieldFacts(name: nil, schema: schema, pointer: "", isRequired: false), base: base)]
        } else {
            queues = fields.map { drafts(for: $0, base: base) }
        }
        queues.append(bodyDrafts(base: base, fields: fields))

        var seen: Set<[UInt8]> = []
        if let base { seen.insert(EdgeDraft.key(body: base, contentType: .declared)) }
        var cases: [ProbeCase] = []
        let rounds = queues.map(\.count).max() ?? 0
        var round = 0
        while cases.count < limit, round < rounds {
            for queue in queues where round < queue.count && cases.count < limit {
                let draft = queue[round]
                guard seen.insert(draft.key).inserted else { continue }
                cases.append(probeCase(draft))
            }
            round += 1
        }
        return cases
    }

    private func probeCase(_ draft: EdgeDraft) -> ProbeCase {
        let broken = draft.fixedBreaks ?? draft.body.flatMap { breaks($0, aimingAt: draft.aim) }
        return ProbeCase(label: draft.label, field: draft.field, body: draft.body, contentType: draft.contentType, breaks: broken)
    }

    // MARK: one field

    /// One field's cases, most revealing first.
    func drafts(for facts: FieldFacts, base: JSONValue?) -> [EdgeDraft] {
        let name = facts.name
        let current: JSONValue? = name.map { base?[$0] } ?? base
        let title = name ?? "body"
        let kinds = facts.kinds(base: current)
        let currentText: String = if case .string(let text)? = current { text } else { "" }
        func draft(_ what: String, _ value: JSONValue?, aim: String?) -> EdgeDraft {
            let body = name.map { Self.setting($0, to: value, in: base ?? .object([])) } ?? value
            return EdgeDraft(label: "\(title): \(what)", field: name, body: body, aim: aim)
        }
        var result: [EdgeDraft] = []
        if facts.isRequired, name != nil { result.append(draft("missing (required)", nil, aim: "required")) }
        // A list where one value is expected is what servers most often crash on.
        if !kinds.isEmpty, !kinds.contains("array") {
            result.append(draft("a list instead of one value", .array([current ?? .string("probe")]), aim: "type"))
        }
        if facts.types.contains("integer") { result.append(draft("fraction (0.5)", .number("0.5"), aim: "type")) }

        // Past each bound, then the pattern, options and format broken.
        let numeric = kinds.contains("number")
        let textual = kinds.contains("string")
        if numeric {
            if let minimum = facts.minimum, let below = EdgeValues.adding(-1, to: minimum) {
                result.append(draft("min - 1 (\(below))", .number(below), aim: "minimum"))
            }
            if let maximum = facts.maximum, let above = EdgeValues.adding(1, to: maximum) {
                result.append(draft("max + 1 (\(above))", .number(above), aim: "maximum"))
            }
            if let bound = facts.exclusiveMinimum { result.append(draft("exclusive min (\(bound))", .number(bound), aim: "exclusiveMinimum")) }
            if let bound = facts.exclusiveMaximum { result.append(draft("exclusive max (\(bound))", .number(bound), aim: "exclusiveMaximum")) }
        }
        if textual {
            // Bounds past the longest text a probe sends are not probed (a hostile minLength).
            if let minLength = facts.minLength, minLength > 0, minLength <= EdgeValues.longTextLength {
                let text = EdgeValues.text(count: minLength - 1, cycling: currentText)
                result.append(draft("minLength - 1 (\(EdgeValues.characters(minLength - 1)))", .string(text), aim: "minLength"))
            }
            if let maxLength = facts.maxLength, maxLength < EdgeValues.longTextLength {
                let text = EdgeValues.text(count: maxLength + 1, cycling: currentText)
                result.append(draft("maxLength + 1 (\(EdgeValues.characters(maxLength + 1)))", .string(text), aim: "maxLength"))
            }
        }
        if let wrong = Self.wrongTypeValue(kinds: kinds) {
            result.append(draft("wrong type (\(FieldFacts.jsonType(of: wrong)))", wrong, aim: "type"))
        }
        let elements = kinds.contains("array") ? sampleElements(of: current, at: facts) : []
        if kinds.contains("array") {
            if let minItems = facts.minItems, minItems > 0, minItems <= EdgeValues.longTextLength, let list = Self.cycling(elements, count: minItems - 1) {
                result.append(draft("minItems - 1 (\(Self.items(minItems - 1)))", .array(list), aim: "minItems"))
            }
            if let maxItems = facts.maxItems, maxItems < EdgeValues.longTextLength, let list = Self.cycling(elements, count: maxItems + 1) {
                result.append(draft("maxItems + 1 (\(Self.items(maxItems + 1)))", .array(list), aim: "maxItems"))
            }
            let itemKinds = facts.itemTypes.contains("integer") ? facts.itemTypes.union(["number"]) : facts.itemTypes
            if let wrong = Self.wrongTypeValue(kinds: itemKinds) {
                let list = [wrong] + elements.dropFirst()
                result.append(draft("wrong item type (\(FieldFacts.jsonType(of: wrong)))", .array(list), aim: "type"))
            }
        }
        if facts.hasPattern, let value = violation(of: "pattern", at: facts) { result.append(draft("does not match the pattern", value, aim: "pattern")) }
        if facts.hasEnum, let value = violation(of: "enum", at: facts) { result.append(draft("not one of the options", value, aim: "enum")) }
        if let format = facts.format, let value = violation(of: "format", at: facts) { result.append(draft("not a valid \(format)", value, aim: "format")) }
        if current != .null { result.append(draft("null", .null, aim: "type")) }

        // At each bound: should be accepted.
        if numeric {
            if let minimum = facts.minimum { result.append(draft("min (\(minimum))", .number(minimum), aim: nil)) }
            if let maximum = facts.maximum { result.append(draft("max (\(maximum))", .number(maximum), aim: nil)) }
        }
        if textual {
            if let minLength = facts.minLength, minLength > 0, minLength <= EdgeValues.longTextLength {
                let text = EdgeValues.text(count: minLength, cycling: currentText)
                result.append(draft("minLength (\(EdgeValues.characters(minLength)))", .string(text), aim: nil))
            }
            if let maxLength = facts.maxLength, maxLength <= EdgeValues.longTextLength {
                let text = EdgeValues.text(count: maxLength, cycling: currentText)
                result.append(draft("maxLength (\(EdgeValues.characters(maxLength)))", .string(text), aim: nil))
            }
        }

        // Empty, long, awkward text; extreme numbers.
        if kinds.contains("array") {
            if let minItems = facts.minItems, minItems > 0, let list = Self.cycling(elements, count: minItems) {
                result.append(draft("minItems (\(Self.items(minItems)))", .array(list), aim: nil))
            }
            if let maxItems = facts.maxItems, let list = Self.cycling(elements, count: maxItems) {
                result.append(draft("maxItems (\(Self.items(maxItems)))", .array(list), aim: nil))
            }
        }
        if textual { result.append(draft("empty string", "", aim: "minLength")) }
        if kinds.contains("array") { result.append(draft("empty array", .array([]), aim: "minItems")) }
        if kinds.contains("object") { result.append(draft("empty object", .object([]), aim: "required")) }
        if textual {
            let long = EdgeValues.text(count: EdgeValues.longTextLength, cycling: currentText)
            result.append(draft(EdgeValues.characters(EdgeValues.longTextLength), .string(long), aim: "maxLength"))
            for (label, text) in EdgeValues.unicodeTexts { result.append(draft(label, .string(text), aim: nil)) }
        }
        if numeric {
            for (label, lexeme) in EdgeValues.numbers { result.append(draft(label, .number(lexeme), aim: nil)) }
        }
        if !facts.isRequired, name != nil, current != nil { result.append(draft("missing (optional)", nil, aim: nil)) }
        return result
    }

    /// The field's value in an instance the generator made to break `keyword` of that field
    /// alone; `nil` when it cannot.
    private func violation(of keyword: String, at facts: FieldFacts) -> JSONValue? {
        guard let instance = try? generator.invalidInstance(violating: facts.pointer + "/" + keyword, seed: seed) else { return nil }
        return facts.name.map { instance[$0] } ?? instance
    }

    /// Elements that meet the field's `items`: its current value's, else those of the first
    /// generated instance that has some (a base of `[]` has none to repeat).
    private func sampleElements(of current: JSONValue?, at facts: FieldFacts) -> [JSONValue] {
        if case .array(let list)? = current, !list.isEmpty { return list }
        for offset in 0..<Self.completionDraws {
            guard let instance = try? generator.validInstance(seed: seed &+ offset) else { continue }
            if case .array(let list)? = facts.name.map({ instance[$0] }) ?? instance, !list.isEmpty { return list }
        }
        return []
    }

    /// A value of a JSON type the field does not take, the likeliest mix-up first: a number as
    /// text, text where a number goes, one value where a list goes. `nil` when every type is taken.
    static func wrongTypeValue(kinds: Set<String>) -> JSONValue? {
        var candidates: [JSONValue] = []
        if kinds.contains("number") || kinds.contains("integer") { candidates.append(.string("42")) }
        if kinds.contains("boolean") { candidates.append(.string("true")) }
        if kinds.contains("array") { candidates.append(.string("item")) }
        if kinds.contains("object") { candidates.append(.array([])) }
        candidates += [.number("42"), .string("42"), .bool(true), .array([]), .object([])]
        guard !kinds.isEmpty else { return nil }
        return candidates.first { !kinds.contains(FieldFacts.jsonType(of: $0)) }
    }

    // MARK: the whole body

    /// Unknown field, missing and wrong `Content-Type`, a duplicate key, deep nesting.
    func bodyDrafts(base: JSONValue?, fields: [FieldFacts]) -> [EdgeDraft] {
        guard let base else { return [] }
        var result: [EdgeDraft] = []
        let isObject: Bool = if case .object = base { true } else { false }
        if isObject {
            let unknown = Self.unusedName("apicheckUnknownField", in: base)
            result.append(EdgeDraft(label: "body: unknown field", body: Self.setting(unknown, to: "probe", in: base), aim: "additionalProperties"))
        }
        result.append(EdgeDraft(label: "Content-Type: none", body: base, contentType: .none, fixedBreaks: "Content-Type"))
        result.append(EdgeDraft(label: "Content-Type: text/plain", body: base, contentType: .other("text/plain"), fixedBreaks: "Content-Type"))
        if case .object(let members) = base, let duplicated = duplicateCandidate(members: members, fields: fields) {
            let body = JSONValue.object(members + [JSONMember(duplicated.key, duplicated.value)])
            result.append(EdgeDraft(label: "body: duplicate key \"\(duplicated.key)\"", body: body, aim: nil))
        }
        let depth = EdgeValues.nestingDepth
        if isObject {
            // The body is the first level; the member's arrays the other 63.
            let nested = EdgeValues.nestedArrays(depth: depth - 1, around: "deep")
            let body = Self.setting(Self.unusedName("apicheckNested", in: base), to: nested, in: base)
            result.append(EdgeDraft(label: "body: \(depth) levels of nesting", body: body, aim: "additionalProperties"))
        } else {
            result.append(EdgeDraft(label: "body: \(depth) levels of nesting", body: EdgeValues.nestedArrays(depth: depth - 1, around: base), aim: nil))
        }
        return result
    }

    /// The member to repeat (a required one first) and a second value for it: another valid value
    /// when a generated instance has one, so a server reading either occurrence gets a valid body
    /// and only its handling of the repeat shows.
    private func duplicateCandidate(members: [JSONMember], fields: [FieldFacts]) -> JSONMember? {
        let required = Set(fields.filter(\.isRequired).compactMap(\.name))
        guard let first = members.first(where: { required.contains($0.key) }) ?? members.first else { return nil }
        for offset in 1...UInt64(4) {
            if let other = (try? generator.validInstance(seed: seed &+ offset))?[first.key], other != first.value {
                return JSONMember(first.key, other)
            }
        }
        return first
    }

    /// `count` elements cycled from `elements` (so each still meets `items`); `nil` when there
    /// are none to cycle and some are needed, or when the list would be unreasonably long.
    static func cycling(_ elements: [JSONValue], count: Int) -> [JSONValue]? {
        guard count >= 0, count <= EdgeValues.longTextLength, count == 0 || !elements.isEmpty else { return nil }
        return (0..<count).map { elements[$0 % elements.count] }
    }

    static func items(_ count: Int) -> String {
        count == 1 ? "1 item" : "\(EdgeValues.grouped(count)) items"
    }

    static func unusedName(_ preferred: String, in body: JSONValue) -> String {
        var name = preferred
        var suffix = 2
        while body[name] != nil {
            name = preferred + String(suffix)
            suffix += 1
        }
        return name
    }
}

/// An edge case before the validator has said what it breaks.
struct EdgeDraft {
    var label: String
    var field: String?
    var body: JSONValue?
    var contentType: ProbeCase.ContentType = .declared
    /// The keyword the case is meant to break, preferred when the body fails several.
    var aim: String?
    /// What the case breaks whatever the body (`Content-Type`).
    var fixedBreaks: String?

    init(label: String, field: String? = nil, body: JSONValue?, contentType: ProbeCase.ContentType = .declared, aim: String? = nil, fixedBreaks: String? = nil) {
        self.label = label
        self.field = field
        self.body = body
        self.contentType = contentType
        self.aim = aim
        self.fixedBreaks = fixedBreaks
    }

    /// What makes two cases the same request: the bytes sent and how they are labelled. Bytes,
    /// not `String`s, which compare NFC and NFD text equal.
    var key: [UInt8] { Self.key(body: body, contentType: contentType) }

    static func key(body: JSONValue?, contentType: ProbeCase.ContentType) -> [UInt8] {
        let tag: String
        switch contentType {
        case .declared: tag = "declared"
        case .none: tag = "none"
        case .other(let type): tag = "other " + type
        }
        return Array(tag.utf8) + [0] + (body.map { JSONWriter().bytes($0) } ?? [])
    }
}
