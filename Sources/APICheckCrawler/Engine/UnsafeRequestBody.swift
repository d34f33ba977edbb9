import APICheckHypermedia
import APICheckJSON
import Foundation

/// The body an unsafe link is sent (or matched against stubs) with: its `parameters` (AcmeFlix,
/// PayPal) or form fields (Siren actions, HAL-FORMS), with `{name}` placeholders filled from
/// `--var`. JSON unless the link asks for `application/x-www-form-urlencoded`.
struct UnsafeRequestBody: Sendable {
    var data: Data
    var contentType: String?
    /// Placeholders no `--var` filled; their members are left out of ``data``.
    var missingVariables: [String] = []

    static func make(for link: Link, variables: [String: URITemplate.Value]) -> UnsafeRequestBody {
        var pairs: [(String, JSONValue)] = []
        var missing: [String] = []
        for parameter in link.parameters {
            if let value = fill(parameter.value, variables) {
                pairs.append((parameter.name, value))
            } else if case .string(let placeholder)? = parameter.value, let template = try? URITemplate(placeholder) {
                missing += template.missingVariables(for: variables)
            }
        }
        for field in link.fields where !pairs.contains(where: { $0.0 == field.name }) {
            if let value = fill(field.value, variables) ?? variables[field.name].flatMap(text).map(JSONValue.string) {
                pairs.append((field.name, value))
            }
        }
        guard !pairs.isEmpty else { return UnsafeRequestBody(data: Data(), contentType: nil, missingVariables: missing) }
        if link.contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            let encoded = pairs.map { name, value in
                let text: String
                switch value {
                case .string(let string): text = string
                default: text = JSONWriter().string(value)
                }
                return (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name) + "=" + (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text)
            }
            return UnsafeRequestBody(data: Data(encoded.joined(separator: "&").utf8), contentType: "application/x-www-form-urlencoded", missingVariables: missing)
        }
        let object = JSONValue.object(pairs.map { JSONMember($0.0, $0.1) })
        return UnsafeRequestBody(data: Data(JSONWriter().string(object).utf8), contentType: "application/json", missingVariables: missing)
    }

    /// A concrete value as is; a `{name}` placeholder from `--var`; otherwise nothing.
    private static func fill(_ value: JSONValue?, _ variables: [String: URITemplate.Value]) -> JSONValue? {
        guard let value else { return nil }
        guard case .string(let string) = value, URITemplate.looksTemplated(string) else { return value }
        guard let template = try? URITemplate(string), template.missingVariables(for: variables).isEmpty,
            let expanded = try? template.expand(variables)
        else { return nil }
        // A lone placeholder keeps the variable's JSON type when it reads as a number.
        if string.hasPrefix("{"), string.hasSuffix("}"), Double(expanded) != nil { return .number(expanded) }
        return .string(expanded)
    }

    private static func text(_ value: URITemplate.Value) -> String? {
        if case .string(let string) = value { return string }
        return nil
    }
}
