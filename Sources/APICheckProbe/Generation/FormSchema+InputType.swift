import APICheckHypermedia
import APICheckJSON

extension FormSchema {
    /// An HTML input type (as HAL-FORMS and Siren write them) read as JSON: its type, format and
    /// which constraints apply. Some APIs write JSON Schema's type names instead (`integer`,
    /// `boolean`): those are taken at their word.
    struct InputType {
        var jsonType: String?
        var format: String?
        /// `month` and `week` have a shape but no JSON Schema format.
        var impliedPattern: String?
        var isFile = false

        init(_ field: FormField) {
            let name = field.type?.lowercased() ?? ""
            switch name {
            case "", "hidden":
                // Untyped or hidden: the value's own JSON type when it has one, else text.
                jsonType = field.value.flatMap(FormSchema.concreteType(of:)) ?? "string"
            case "text", "textarea", "search", "password", "tel", "color", "radio", "select", "string":
                jsonType = "string"
            case "email":
                jsonType = "string"
                format = "email"
            case "url", "uri":
                jsonType = "string"
                format = "uri"
            case "date":
                jsonType = "string"
                format = "date"
            case "datetime-local", "datetime", "date-time":
                jsonType = "string"
                format = "date-time"
            case "time":
                jsonType = "string"
                format = "time"
            case "month":
                jsonType = "string"
                impliedPattern = "[0-9]{4}-(0[1-9]|1[0-2])"
            case "week":
                jsonType = "string"
                impliedPattern = "[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])"
            case "file":
                jsonType = "string"
                isFile = true
            case "number", "range", "float", "double", "decimal":
                // A number input may take fractions: integer bounds do not say they are refused, and a
                // probe must not warn about what was never advertised.
                jsonType = "number"
            case "integer", "int":
                jsonType = "integer"
            case "checkbox", "boolean", "bool":
                jsonType = "boolean"
            case "array":
                jsonType = "array"
            case "object":
                jsonType = "object"
            default:
                // A type this mapping does not know: no constraint rather than a wrong one.
                jsonType = nil
            }
        }

        var takesText: Bool { jsonType == "string" || jsonType == nil }
        var takesNumbers: Bool { jsonType == "number" || jsonType == "integer" || jsonType == nil }

        /// The field's value as a `default` of this type: HAL-FORMS writes every value as text
        /// (`"value": "1999"` for a number), so text that reads as the type is converted; an
        /// empty or unconvertible value is no default at all.
        func coerce(_ value: JSONValue) -> JSONValue? {
            switch (jsonType, value) {
            case (_, .null): return nil
            case ("number", .string(let text)), ("integer", .string(let text)):
                guard FormSchema.isNumberLexeme(text) else { return nil }
                return jsonType == "integer" && !FormSchema.isIntegerLexeme(text) ? nil : .number(text)
            case ("number", .number), ("integer", .number), ("boolean", .bool), ("string", .string), (nil, _): return value
            case ("boolean", .string(let text)):
                switch text.lowercased() {
                case "true", "on", "checked", "1": return .bool(true)
                case "false", "off", "0": return .bool(false)
                default: return nil
                }
            case ("string", .number(let lexeme)): return .string(lexeme)
            case ("string", .bool(let flag)): return .string(flag ? "true" : "false")
            case ("array", .array), ("object", .object): return value
            default: return nil
            }
        }
    }
}
