import APICheckJSON
import APICheckSchema
import Foundation

/// The raw document's places, for what ``OpenAPIOperation`` does not carry (examples, parameters,
/// request bodies): a node at a JSON pointer, local `$ref`s followed (a bounded number of hops,
/// so a cycle is a miss, never a loop).
extension OpenAPIDocument {
    func node(at pointer: String) -> JSONNode? {
        node.node(at: pointer)
    }

    /// The pointer `pointer` names once local `$ref`s are followed; `nil` when it names nothing,
    /// or a `$ref` leaves the document or goes round.
    func resolve(_ pointer: String) -> String? {
        var current = pointer
        for _ in 0..<64 {
            guard let here = node(at: current) else { return nil }
            guard let reference = here["$ref"]?.stringValue else { return current }
            guard reference.hasPrefix("#") else { return nil }
            current = String(reference.dropFirst()).removingPercentEncoding ?? String(reference.dropFirst())
        }
        return nil
    }

    /// A reference to the schema at `pointer`, for compiling it (or generating from it) in the
    /// document's registry, where `#/components/schemas/…` and files beside it resolve.
    func schemaReference(_ pointer: String) -> JSONValue {
        let fragment = pointer.addingPercentEncoding(withAllowedCharacters: Self.fragmentAllowed) ?? pointer
        return .object([JSONMember("$ref", .string(baseURI + "#" + fragment))])
    }

    /// Compiles the schema at `pointer` with `options` (the document's, or in another direction).
    func compileSchema(at pointer: String, options: JSONSchemaOptions) throws(JSONSchemaError) -> APICheckSchema.JSONSchema {
        try APICheckSchema.JSONSchema(schemaReference(pointer), baseURI: "urn:apicheck:openapi:mock", registry: registry, options: options)
    }

    /// A generator of valid instances of the schema at `pointer` (response direction).
    func generator(at pointer: String) throws(JSONSchemaError) -> JSONSchemaGenerator {
        try JSONSchemaGenerator(schema: schemaReference(pointer), baseURI: "urn:apicheck:openapi:mock", registry: registry, options: schemaOptions)
    }

    /// Where `pointer` is in the file, for diagnostics.
    func position(of pointer: String) -> JSONPosition {
        node.deepestNode(along: pointer).position
    }

    private static let fragmentAllowed: CharacterSet = {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/!$&'()*+,;=:@")
        return allowed
    }()
}
