import APICheckHypermedia
import APICheckJSON

/// The JSON Schema (2020-12) of the body a form asks for, so that one generator
/// (``ProbeCaseGenerator``, over APICheckSchema's `JSONSchemaGenerator`) serves HAL-FORMS
/// templates, Siren actions, Collection+JSON templates and link `parameters` alike, and every
/// case's `breaks` is decided by the validator rather than guessed.
///
/// ```swift
/// let schema = FormSchema.schema(for: template.fields, contentType: template.contentType)
/// let generator = try ProbeCaseGenerator(schema: schema, seed: 7)
/// ```
public enum FormSchema {
    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// The schema of an object whose members are the form's fields (read-only fields left out:
    /// they are shown, not sent). HTML input types map to JSON types and formats (`number` and
    /// `range` to numbers, integers only when both bounds and the value are; `checkbox` to
    /// booleans; `email`, `url`, `date`, `datetime-local`, `time` to string formats); the value
    /// becomes the `default`, options an `enum` (an array of them when several may be chosen),
    /// HAL-FORMS `regex` a `pattern` anchored at both ends, since it must match the whole value.
    ///
    /// `contentType` is the one the form declares: under `multipart/form-data` a `file` input is
    /// a string of `application/octet-stream`; otherwise it changes nothing, values being JSON
    /// until the request is encoded.
    public static func schema(for fields: [FormField], contentType: String?) -> JSONValue {
        let isMultipart = contentType.map { $0.lowercased().hasPrefix("multipart/form-data") } ?? false
        var properties: [JSONMember] = []
        var required: [JSONValue] = []
        for field in fields where !field.isReadOnly {
            guard !properties.contains(where: { $0.key == field.name }) else { continue }
            properties.append(JSONMember(field.name, fieldSchema(field, isMultipart: isMultipart)))
            if field.isRequired { required.append(.string(field.name)) }
        }
        return objectSchema(properties: properties, required: required)
    }

    /// The schema of a link's `parameters`: each a property, typed by its value when the value is
    /// concrete (`"sort": "title"` is a string, `"page": 1` a number, `"{rating}"` anything), with
    /// that value as its `default`. Links say nothing of which are required: none are.
    public static func schema(forParameters parameters: [LinkParameter]) -> JSONValue {
        var properties: [JSONMember] = []
        for parameter in parameters where !properties.contains(where: { $0.key == parameter.name }) {
            var members: [JSONMember] = []
            if let value = parameter.value, let type = concreteType(of: value) {
                members.append(JSONMember("type", .string(type)))
                members.append(JSONMember("default", value))
            }
            properties.append(JSONMember(parameter.name, .object(members)))
        }
        return objectSchema(properties: properties, required: [])
    }

    // MARK: one field

    private static func objectSchema(properties: [JSONMember], required: [JSONValue]) -> JSONValue {
        var members = [JSONMember("$schema", .string(dialect)), JSONMember("type", "object"), JSONMember("properties", .object(properties))]
        if !required.isEmpty { members.append(JSONMember("required", .array(required))) }
        return .object(members)
    }

    /// What one input admits. Options win over the input type: a `select` of numbers is an enum
    /// of those numbers, whatever its `type` says.
    static func fieldSchema(_ field: FormField, isMultipart: Bool) -> JSONValue {
        var members: [JSONMember] = []
        if let title = field.title { members.append(JSONMember("title", .string(title))) }
        if let options = field.options, !options.isEmpty {
            if field.allowsSeveralOptions {
                members.append(JSONMember("type", "array"))
                members.append(JSONMember("items", .object([JSONMember("enum", .array(options))])))
                members.append(JSONMember("uniqueItems", true))
                if let value = field.value {
                    members.append(JSONMember("default", value.isArray ? value : .array([value])))
                }
            } else {
                members.append(JSONMember("enum", .array(options)))
                if let value = field.value { members.append(JSONMember("default", value)) }
            }
            return .object(members)
        }
        let input = InputType(field)
        if let type = input.jsonType { members.append(JSONMember("type", .string(type))) }
        if let format = input.format { members.append(JSONMember("format", .string(format))) }
        if input.isFile && isMultipart { members.append(JSONMember("contentMediaType", "application/octet-stream")) }
        if input.takesText {
            if let pattern = field.pattern ?? input.impliedPattern { members.append(JSONMember("pattern", .string("^(?:" + pattern + ")$"))) }
            if let minimumLength = field.minimumLength, minimumLength >= 0 { members.append(JSONMember("minLength", .number(String(minimumLength)))) }
            if let maximumLength = field.maximumLength, maximumLength >= 0 { members.append(JSONMember("maxLength", .number(String(maximumLength)))) }
        }
        if input.takesNumbers {
            if let minimum = field.minimum, isNumberLexeme(minimum) { members.append(JSONMember("minimum", .number(minimum))) }
            if let maximum = field.maximum, isNumberLexeme(maximum) { members.append(JSONMember("maximum", .number(maximum))) }
        }
        if let value = field.value, let coerced = input.coerce(value) { members.append(JSONMember("default", coerced)) }
        return .object(members)
    }

    /// The JSON type a concrete value has; `nil` for `null` and for placeholders like `{rating}`.
    static func concreteType(of value: JSONValue) -> String? {
        switch value {
        case .null: nil
        case .bool: "boolean"
        case .number: "number"
        case .string(let text): URITemplate.looksTemplated(text) ? nil : "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Whether `text` is a JSON number (HAL-FORMS `min`/`max` may be dates, which bound nothing here).
    static func isNumberLexeme(_ text: String) -> Bool {
        guard !text.isEmpty, case .number? = try? JSONParser().parseValue(Array(text.utf8)) else { return false }
        return true
    }

    static func isIntegerLexeme(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

extension JSONValue {
    var isArray: Bool { if case .array = self { true } else { false } }
}
