import APICheckJSON

/// A subschema together with where it is: the resource it belongs to (for `$ref`s inside it and
/// for compiling a probe validator of just this subschema) and the path the validator reports
/// for keywords under it (`/properties/year/$ref/type`), which is how violations are named.
struct SchemaSite: Sendable {
    var schema: JSONValue
    /// Base URI of the resource the subschema is in.
    var baseURI: String
    /// JSON pointer of the subschema inside its document (as `JSONSchemaRegistry.Resolved` has it).
    var pointer: String
    /// Evaluation path from the root schema, as `keywordLocation` spells it.
    var path: String
    var draft: JSONSchemaDraft
    /// `$ref`s followed to get here: bounds recursion.
    var hops: Int
    /// The `$ref` targets followed to get here, and how often the most repeated one recurs:
    /// a schema that refers back to itself gets its shortest branch after a couple of rounds,
    /// while a long chain of different definitions does not.
    var trail: [String] = []
    var recursion = 0
    /// The dynamic scope: URIs of the resources entered to get here, outermost first, for
    /// `$dynamicRef` and `$recursiveRef`.
    var scope: [String] = []

    /// The subschema under `keyword` (and `index`/`name` below it, if given).
    func child(_ keyword: String, _ token: String? = nil) -> SchemaSite? {
        guard var value = schema[keyword] else { return nil }
        var suffix = "/" + JSONPointer.escape(keyword)
        if let token {
            switch value {
            case .object: guard let inner = value[token] else { return nil }; value = inner
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                value = elements[index]
            default: return nil
            }
            suffix += "/" + JSONPointer.escape(token)
        }
        return SchemaSite(
            schema: value, baseURI: baseURI, pointer: pointer + suffix, path: path + suffix, draft: draft, hops: hops, trail: trail, recursion: recursion, scope: scope)
    }

    /// Members of an object-valued keyword (`properties`), in document order.
    func members(_ keyword: String) -> [(key: String, site: SchemaSite)] {
        guard case .object(let members)? = schema[keyword] else { return [] }
        return members.compactMap { member in child(keyword, member.key).map { (member.key, $0) } }
    }

    /// Elements of an array-valued keyword (`allOf`).
    func elements(_ keyword: String) -> [SchemaSite] {
        guard case .array(let elements)? = schema[keyword] else { return [] }
        return elements.indices.compactMap { child(keyword, String($0)) }
    }

    /// The location of this subschema as a URI a `$ref` can name: its resource's URI and the
    /// pointer from that resource's root (`pointer` is from the document's root).
    func absoluteLocation(in registry: JSONSchemaRegistry) -> String {
        let base = baseURI.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? baseURI
        var relative = pointer
        if let resourceRoot = registry.resolve(base, against: base)?.pointer, !resourceRoot.isEmpty, relative.hasPrefix(resourceRoot) {
            relative = String(relative.dropFirst(resourceRoot.count))
        }
        return base + "#" + Self.fragmentEncode(relative)
    }

    /// A key that tells subschemas apart without asking the registry.
    var identity: String { baseURI + "#" + pointer }


    /// Percent-encodes what may not appear in a URI fragment (RFC 3986 §3.5).
    static func fragmentEncode(_ pointer: String) -> String {
        var result = ""
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in pointer.utf8 {
            if allowed.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return result
    }
}
