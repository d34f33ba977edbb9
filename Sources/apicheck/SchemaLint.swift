import APICheckCrawler
import APICheckHypermedia
import APICheckJSON
import APICheckModel
import APICheckSchema
import APICheckVerifier

/// `apicheck schema lint`: a schema file's problems as located diagnostics. It must compile
/// (valid keywords, resolvable `$ref`s, patterns that are ECMA-262), validate against its draft's
/// meta-schema, and use no keyword its draft does not know (a typo checks nothing, silently).
struct SchemaLint {
    let path: String
    let options: JSONSchemaOptions

    func diagnostics(_ node: JSONNode) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        func at(_ position: JSONPosition) -> SourceLocation { SourceLocation(path: path, line: position.line, column: position.column) }
        if case .failure(let problem) = ProfileLoader(options: options).compileSchema(at: path) {
            diagnostics.append(problem.diagnostic)
        }
        let draft = Self.draft(of: node.value, default: options.defaultDraft)
        if let meta = Self.metaSchema(draft) {
            // The compiler's error says it better where both see one problem (on the same line).
            let compilerLines = Set(diagnostics.filter { $0.location.path == path }.map(\.location.line))
            for unit in meta.validate(node.value).relevantErrors {
                let position = node.deepestNode(along: unit.instanceLocation).position
                guard !compilerLines.contains(position.line) else { continue }
                let field = unit.instanceLocation.isEmpty ? "the schema" : unit.instanceLocation
                diagnostics.append(.error("\(field): \(unit.error) (meta-schema \(unit.keywordLocation))", at: at(position)))
            }
        }
        let known = draft.keywordNames
        for (name, position) in draft.unknownKeywords(in: node) {
            diagnostics.append(Diagnostic(
                .warning, "\"\(name)\" is not a keyword of \(draft.rawValue)\(Suggestion.didYouMean(name, in: known, quote: { "\"\($0)\"" })); it checks nothing",
                at: at(position), code: .unknownName))
        }
        diagnostics += danglingReferences(node, at: at)
        // One problem reported by two checks is said once.
        var seen = Set<String>()
        return diagnostics.filter { seen.insert($0.description).inserted }.sorted(by: Diagnostic.precedes)
    }

    /// Local `$ref`s (`#/$defs/x`, `#anchor`) that name nothing, wherever they are: compiling
    /// finds only those a validation can reach, so one in an unused `$defs` entry would stay
    /// hidden until the day it is used. Skipped in documents with embedded `$id`s, whose local
    /// references resolve against other bases.
    private func danglingReferences(_ node: JSONNode, at: (JSONPosition) -> SourceLocation) -> [Diagnostic] {
        var references: [(String, JSONPosition)] = []
        var embeddedIDs = 0
        func walk(_ current: JSONNode, depth: Int) {
            guard depth < 256 else { return }
            switch current.kind {
            case .object(let members):
                for member in members {
                    if ["$id", "id"].contains(member.key), depth > 0, case .string = member.value.kind { embeddedIDs += 1 }
                    if member.key == "$ref", case .string(let reference) = member.value.kind, reference.hasPrefix("#") {
                        references.append((reference, member.value.position))
                    }
                    if !["enum", "const", "default", "examples", "example"].contains(member.key) { walk(member.value, depth: depth + 1) }
                }
            case .array(let elements):
                for element in elements { walk(element, depth: depth + 1) }
            default:
                break
            }
        }
        walk(node, depth: 0)
        guard !references.isEmpty, embeddedIDs == 0 else { return [] }
        var registry = JSONSchemaRegistry()
        let base = "urn:apicheck:lint"
        guard (try? registry.add(node, uri: base, file: path)) != nil else { return [] }
        return references.compactMap { reference, position in
            registry.resolve(reference, against: base) == nil
                ? .error("$ref \"\(reference)\" names nothing in this schema", at: at(position)) : nil
        }
    }

    /// The draft a schema declares, else `fallback`.
    static func draft(of schema: JSONValue, default fallback: JSONSchemaDraft) -> JSONSchemaDraft {
        if case .string(let uri)? = schema["$schema"], let draft = JSONSchemaDraft(metaSchemaURI: uri) { return draft }
        return fallback
    }

    /// The draft's meta-schema, compiled; `nil` for OpenAPI 3.0, whose schema object has none of its own.
    static func metaSchema(_ draft: JSONSchemaDraft) -> JSONSchema? {
        guard draft != .openAPI30 else { return nil }
        var options = JSONSchemaOptions()
        options.defaultDraft = draft
        return try? JSONSchema(.object(["$ref": .string(draft.metaSchemaURI)]), options: options)
    }
}
