import APICheckCrawler
import APICheckJSON
import APICheckModel
import APICheckSchema

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
        // One problem reported by two checks is said once.
        var seen = Set<String>()
        return diagnostics.filter { seen.insert($0.description).inserted }.sorted(by: Diagnostic.precedes)
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
