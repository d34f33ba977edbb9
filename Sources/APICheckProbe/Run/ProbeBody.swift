import APICheckJSON
import APICheckModel
import Foundation

/// The bytes and `Content-Type` a generated case is sent with: the flat object the generator made,
/// shaped as the format expects (a Collection+JSON template, a JSON:API resource object), encoded
/// as the affordance declares (JSON, or `application/x-www-form-urlencoded`).
struct ProbeBody: Sendable, Hashable {
    var data: Data
    var contentType: String?

    init(_ probeCase: ProbeCase, for affordance: Affordance) {
        let declared = affordance.requestContentType ?? "application/json"
        let text = probeCase.body.map { Self.encode(Self.shaped($0, affordance.bodyShape), as: declared) }
        data = Data((text ?? "").utf8)
        switch probeCase.contentType {
        case .declared: contentType = text == nil ? nil : declared
        case .none: contentType = nil
        case .other(let other): contentType = other
        }
    }

    /// The body as text, for a reproduction (every probe body is UTF-8 text).
    var text: String? { data.isEmpty ? nil : String(decoding: data, as: UTF8.self) }

    static func shaped(_ body: JSONValue, _ shape: Affordance.BodyShape) -> JSONValue {
        switch shape {
        case .plain:
            return body
        case .collectionJSONTemplate:
            guard case .object(let members) = body else { return body }
            let data = members.map { JSONValue.object([JSONMember("name", .string($0.key)), JSONMember("value", $0.value)]) }
            return .object([JSONMember("template", .object([JSONMember("data", .array(data))]))])
        case .jsonAPIResource(let type):
            return .object([JSONMember("data", .object([JSONMember("type", .string(type)), JSONMember("attributes", body)]))])
        }
    }

    static func encode(_ body: JSONValue, as contentType: String) -> String {
        guard ContentTypeHeader.essence(of: contentType) == "application/x-www-form-urlencoded", case .object(let members) = body else {
            return JSONWriter().string(body)
        }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return members.map { member in
            let value: String
            switch member.value {
            case .string(let string): value = string
            case .null: value = ""
            default: value = JSONWriter().string(member.value)
            }
            return (member.key.addingPercentEncoding(withAllowedCharacters: allowed) ?? member.key) + "="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
        }.joined(separator: "&")
    }
}
