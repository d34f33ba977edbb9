import APICheckJSON
import APICheckSchema

/// The requests `apicheck probe` sends to one write affordance: valid ones first, then edge
/// cases that each change one thing, every one labelled and deterministic by seed.
///
/// Generation is APICheckSchema's `JSONSchemaGenerator`; this type decides what to send and in
/// which order, and asks the compiled validator whether a case breaks an advertised constraint
/// (so `breaks` is never a guess). `format` asserts here: an API that advertises `format: email`
/// says it rejects what is not one.
///
/// ```swift
/// let generator = try ProbeCaseGenerator(schema: FormSchema.schema(for: fields, contentType: nil), seed: 7)
/// let cases = generator.validCases(limit: 3) + generator.edgeCases(limit: 40)
/// ```
public struct ProbeCaseGenerator: Sendable {
    public let schema: JSONValue
    public let examples: [JSONValue]
    public let seed: UInt64
    let generator: JSONSchemaGenerator
    let validator: JSONSchema

    /// Compiles `schema`; throws when it does not compile. `examples` are bodies known to work
    /// (an OpenAPI `example`, a recorded request): they are tried before anything generated.
    public init(schema: JSONValue, examples: [JSONValue] = [], seed: UInt64) throws(JSONSchemaError) {
        var options = JSONSchemaOptions()
        options.formatAssertion = true
        self.schema = schema
        self.examples = examples
        self.seed = seed
        self.generator = try JSONSchemaGenerator(schema: schema, options: options)
        self.validator = try JSONSchema(schema, options: options)
    }

    /// Up to `limit` bodies the schema accepts, without repeats: the examples given and the
    /// schema's own `examples` (those that validate), then one built from defaults, constants and
    /// first options, every field at its minimum, every field at its maximum, then generated ones
    /// (`valid: generated #3`: the third draw of the generator's seed).
    public func validCases(limit: Int) -> [ProbeCase] {
        validCases(limit: limit, atBounds: true)
    }

    /// `atBounds`: with the bodies of every field at its minimum and at its maximum (the base body
    /// they start from is itself the first case without them).
    func validCases(limit: Int, atBounds: Bool) -> [ProbeCase] {
        var cases: [ProbeCase] = []
        var seen: Set<[UInt8]> = []
        func add(_ label: String, _ generated: JSONValue) -> Bool {
            let body = plainNumbers(generated)
            guard cases.count < limit, validator.isValid(body), seen.insert(JSONWriter().bytes(body)).inserted else { return false }
            cases.append(ProbeCase(label: label, body: body))
            return true
        }
        var declaredExamples = examples
        if case .array(let own)? = schema["examples"] { declaredExamples += own }
        for (index, example) in declaredExamples.enumerated() { _ = add("valid: example \(index + 1)", example) }
        if let defaults = defaultsBody() { _ = add("valid: defaults", defaults) }
        // Every field at its lower bound at once, then at its upper one: off-by-one bugs (a
        // division by a count that may be 0) on the happy path, one request each.
        if atBounds, let base = baseBody() {
            if let lowest = boundaryBody(base, lower: true) { _ = add("valid: every field at its minimum", lowest) }
            if let highest = boundaryBody(base, lower: false) { _ = add("valid: every field at its maximum", highest) }
        }
        // A schema with few distinct instances repeats itself: stop after a bounded number of tries.
        var offset: UInt64 = 0
        while cases.count < limit, offset < UInt64(limit) + 16 {
            let instanceSeed = seed &+ offset
            offset += 1
            if let body = try? generator.validInstance(seed: instanceSeed) { _ = add("valid: generated #\(offset)", body) }
        }
        return cases
    }

    // MARK: shared with the edge cases

    /// The top-level properties, in schema order, each with what its schema says.
    func fields() -> [FieldFacts] {
        guard case .object(let properties)? = schema["properties"] else { return [] }
        let required = requiredNames()
        var facts: [FieldFacts] = []
        for property in properties where !facts.contains(where: { $0.name == property.key }) {
            let own = FieldFacts.resolvingLocalReferences(property.value, in: schema)
            let pointer = "/properties/" + JSONPointer.escape(property.key)
            facts.append(FieldFacts(name: property.key, schema: own, pointer: pointer, isRequired: required.contains(property.key)))
        }
        return facts
    }

    func requiredNames() -> [String] {
        guard case .array(let names)? = schema["required"] else { return [] }
        return names.compactMap { if case .string(let name) = $0 { name } else { nil } }
    }

    /// The body every edge case starts from: the first valid case, completed with every property
    /// the schema names that can be added without making it invalid, so each field has a value
    /// to vary. `{}` for an object schema nothing satisfies, `nil` for another.
    func baseBody() -> JSONValue? {
        guard var base = validCases(limit: 1, atBounds: false).first?.body else {
            return schema["properties"] != nil || schema["type"] == .string("object") ? .object([]) : nil
        }
        guard case .object = base else { return base }
        // Generated instances leave optional properties out at random: draw until each property
        // has appeared in one, or enough draws say it will not.
        let names = fields().compactMap(\.name)
        var sources: [JSONValue] = defaultsBody().map { [$0] } ?? []
        var offset: UInt64 = 0
        while offset < Self.completionDraws, names.contains(where: { name in !sources.contains { $0[name] != nil } }) {
            if let instance = try? generator.validInstance(seed: seed &+ offset) { sources.append(instance) }
            offset += 1
        }
        for field in fields() {
            guard let name = field.name, base[name] == nil else { continue }
            for source in sources.map(plainNumbers) {
                guard let value = source[name] else { continue }
                let completed = Self.setting(name, to: value, in: base)
                if validator.isValid(completed) {
                    base = completed
                    break
                }
            }
        }
        return base
    }

    /// `base` with each field that has a bound (`minimum`/`maximum`, `minLength`/`maxLength`) at
    /// it, where that keeps the body valid; `nil` when no field has one.
    func boundaryBody(_ base: JSONValue, lower: Bool) -> JSONValue? {
        guard case .object = base else { return nil }
        var body = base
        var moved = false
        for field in fields() {
            guard let name = field.name else { continue }
            var value: JSONValue?
            if let bound = lower ? field.minimum : field.maximum { value = .number(bound) }
            let current: String = if case .string(let text)? = body[name] { text } else { "" }
            if value == nil, let length = lower ? field.minLength : field.maxLength, length <= EdgeValues.longTextLength {
                value = .string(EdgeValues.text(count: length, cycling: current))
            }
            guard let value else { continue }
            let candidate = Self.setting(name, to: value, in: body)
            if validator.isValid(candidate) {
                body = candidate
                moved = true
            }
        }
        return moved ? body : nil
    }

    /// `body` with each fractional number of its top level rounded to a whole one where that
    /// stays valid: a page size of 88.45 is valid for `type: number`, but most servers take whole
    /// numbers, and a base every server refuses would hide every edge case behind a 400.
    func plainNumbers(_ body: JSONValue) -> JSONValue {
        guard case .object(let members) = body else { return body }
        var plain = body
        for member in members {
            guard case .number(let lexeme) = member.value, !FormSchema.isIntegerLexeme(lexeme), let value = Double(lexeme), value.isFinite,
                abs(value) < 1e15
            else { continue }
            let rounded = Self.setting(member.key, to: .number(String(Int64(value.rounded()))), in: plain)
            if validator.isValid(rounded) { plain = rounded }
        }
        return plain
    }

    /// Defaults, constants, first options or first examples of each property (the root's own
    /// for a non-object schema); required properties without any are generated. `nil` when the
    /// schema declares none at all: that body would be just another generated one.
    func defaultsBody() -> JSONValue? {
        guard case .object(let properties)? = schema["properties"] else { return Self.declaredValue(of: schema) }
        let required = requiredNames()
        var members: [JSONMember] = []
        var declaredAny = false
        var generated: JSONValue?
        for property in properties where !members.contains(where: { $0.key == property.key }) {
            let own = FieldFacts.resolvingLocalReferences(property.value, in: schema)
            if let value = Self.declaredValue(of: own) {
                declaredAny = true
                members.append(JSONMember(property.key, value))
            } else if required.contains(property.key) {
                if generated == nil { generated = try? generator.validInstance(seed: seed) }
                if let value = generated?[property.key] { members.append(JSONMember(property.key, value)) }
            }
        }
        return declaredAny ? .object(members) : nil
    }

    static func declaredValue(of schema: JSONValue) -> JSONValue? {
        if let value = schema["default"] { return value }
        if let value = schema["const"] { return value }
        if case .array(let values)? = schema["enum"], let first = values.first { return first }
        if case .array(let values)? = schema["examples"], let first = values.first { return first }
        return nil
    }

    /// The advertised constraint `body` breaks, `nil` when it validates. The keyword the case
    /// aimed at wins when it is among the failures; otherwise the first failing assertion (not
    /// an applicator such as `properties`, which only says where).
    func breaks(_ body: JSONValue, aimingAt keyword: String?) -> String? {
        let output = validator.validate(body)
        guard !output.valid else { return nil }
        let keywords = output.errors.map(\.keyword)
        if let keyword, keywords.contains(keyword) { return keyword }
        return keywords.first { !Self.applicators.contains($0) } ?? keywords.first ?? "schema"
    }

    /// Generated instances drawn at most to complete the base body.
    static let completionDraws: UInt64 = 16

    static let applicators: Set<String> = [
        "properties", "patternProperties", "items", "prefixItems", "allOf", "$ref", "$dynamicRef", "$recursiveRef", "dependentSchemas",
        "if", "then", "else", "",
    ]

    /// `body` with member `name` set to `value` (replaced in place, else appended); `value` `nil`
    /// removes every member of that name.
    static func setting(_ name: String, to value: JSONValue?, in body: JSONValue) -> JSONValue {
        guard case .object(var members) = body else { return body }
        guard let value else {
            members.removeAll { $0.key == name }
            return .object(members)
        }
        if let index = members.firstIndex(where: { $0.key == name }) {
            members[index].value = value
        } else {
            members.append(JSONMember(name, value))
        }
        return .object(members)
    }
}
