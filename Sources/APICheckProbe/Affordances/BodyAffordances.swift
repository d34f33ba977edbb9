import APICheckFindings
import APICheckHypermedia
import APICheckJSON
import APICheckModel

/// Write affordances a format states in the body rather than as a link: Collection+JSON's write
/// `template` (a POST of its data to the collection) and a JSON:API collection (a POST of a
/// resource object of the collection's `type`, JSON:API §7.1).
enum BodyAffordances {
    static func of(_ body: [UInt8], contentType: String, url: String, relPath: RelPath) -> [Affordance] {
        let essence = ContentTypeHeader.essence(of: contentType)
        guard essence == "application/vnd.collection+json" || essence == "application/vnd.api+json",
            let document = try? JSONParser(maximumDepth: 64).parseValue(body)
        else { return [] }
        if essence == "application/vnd.collection+json" {
            return collectionTemplate(document, url: url, relPath: relPath).map { [$0] } ?? []
        }
        return jsonAPICollection(document, url: url, relPath: relPath).map { [$0] } ?? []
    }

    /// `collection.template.data`: the fields of a new item, POSTed to `collection.href`.
    static func collectionTemplate(_ document: JSONValue, url: String, relPath: RelPath) -> Affordance? {
        guard let collection = document["collection"], case .array(let data)? = collection["template"]?["data"], !data.isEmpty else { return nil }
        let href = collection["href"].flatMap { if case .string(let href) = $0 { href } else { nil } } ?? url
        guard let target = URLResolution.resolve(href, against: url) else { return nil }
        var fields: [FormField] = []
        var example: [JSONMember] = []
        for entry in data {
            guard case .string(let name)? = entry["name"] else { continue }
            let value = entry["value"]
            fields.append(FormField(name: name, value: value, title: entry["prompt"].flatMap { if case .string(let text) = $0 { text } else { nil } }))
            if let value, value != .string(""), value != .null { example.append(JSONMember(name, value)) }
        }
        guard !fields.isEmpty else { return nil }
        return Affordance(
            kind: .write, method: "POST", target: target, rel: "template", format: LinkFormat.collectionJSON.displayName,
            relPath: relPath, sourcePointer: "/collection/template", referrer: url,
            requestContentType: "application/vnd.collection+json", responseType: nil,
            bodySchema: FormSchema.schema(for: fields, contentType: "application/json"),
            examples: example.isEmpty ? [] : [.object(example)], bodyShape: .collectionJSONTemplate)
    }

    /// A top-level `data` array of resources of one `type`: a POST of a new one to the collection
    /// (`links.self`, else the URL fetched). Its attributes are those of the items, each of the JSON
    /// type the first item has, none required (the API did not say).
    static func jsonAPICollection(_ document: JSONValue, url: String, relPath: RelPath) -> Affordance? {
        guard case .array(let items)? = document["data"], case .string(let type)? = items.first?["type"] else { return nil }
        guard items.allSatisfy({ $0["type"] == .string(type) }) else { return nil }
        let href = document["links"]?["self"].flatMap { link -> String? in
            switch link {
            case .string(let href): href
            case .object: link["href"].flatMap { if case .string(let href) = $0 { href } else { nil } }
            default: nil
            }
        } ?? url
        guard let target = URLResolution.resolve(href, against: url) else { return nil }
        var properties: [JSONMember] = []
        var names: Set<String> = []
        var example: JSONValue?
        for item in items.prefix(16) {
            guard case .object(let attributes)? = item["attributes"] else { continue }
            if example == nil { example = .object(attributes) }
            for member in attributes where names.insert(member.key).inserted {
                if let type = jsonType(of: member.value) { properties.append(JSONMember(member.key, .object([JSONMember("type", .string(type))]))) }
            }
        }
        guard !properties.isEmpty else { return nil }
        let schema = JSONValue.object([JSONMember("type", .string("object")), JSONMember("properties", .object(properties))])
        return Affordance(
            kind: .write, method: "POST", target: target, rel: "create", format: LinkFormat.jsonAPI.displayName, relPath: relPath,
            sourcePointer: "/data", referrer: url, requestContentType: "application/vnd.api+json", responseType: "application/vnd.api+json",
            bodySchema: schema, examples: example.map { [$0] } ?? [], bodyShape: .jsonAPIResource(type: type))
    }

    private static func jsonType(of value: JSONValue) -> String? {
        switch value {
        case .string: "string"
        case .number(let lexeme): lexeme.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? "number" : "integer"
        case .bool: "boolean"
        case .array: "array"
        case .object: "object"
        case .null: nil
        }
    }
}
