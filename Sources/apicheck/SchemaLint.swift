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
        let known = Self.keywords(of: draft)
        walk(node, known: known) { name, position in
            diagnostics.append(Diagnostic(.warning, "\"\(name)\" is not a keyword of \(draft.rawValue)\(Suggestion.didYouMean(name, in: known, quote: { "\"\($0)\"" })); it checks nothing", at: at(position), code: .unknownName))
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

    /// Calls `report` for each member of a schema object that is not a keyword, walking every
    /// subschema (not `enum`, `const`, `default` or `examples`, which hold data).
    private func walk(_ node: JSONNode, known: Set<String>, report: (String, JSONPosition) -> Void) {
        guard let members = node.members else { return }
        for member in members {
            let name = member.key
            if !known.contains(name), !name.hasPrefix("x-") { report(name, member.keyPosition) }
            switch name {
            case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
                for sub in member.value.members ?? [] { walk(sub.value, known: known, report: report) }
            case "dependencies":
                for sub in member.value.members ?? [] where sub.value.members != nil { walk(sub.value, known: known, report: report) }
            case "items", "prefixItems", "allOf", "anyOf", "oneOf":
                if case .array(let elements) = member.value.kind {
                    for element in elements { walk(element, known: known, report: report) }
                } else {
                    walk(member.value, known: known, report: report)
                }
            case "not", "if", "then", "else", "additionalProperties", "additionalItems", "contains", "propertyNames",
                "unevaluatedProperties", "unevaluatedItems", "contentSchema":
                walk(member.value, known: known, report: report)
            default:
                continue
            }
        }
    }

    /// Each draft's keywords (all vocabularies, annotations included).
    static func keywords(of draft: JSONSchemaDraft) -> Set<String> {
        let draft4: Set<String> = [
            "id", "$schema", "$ref", "title", "description", "default", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
            "exclusiveMinimum", "maxLength", "minLength", "pattern", "additionalItems", "items", "maxItems", "minItems", "uniqueItems",
            "maxProperties", "minProperties", "required", "additionalProperties", "definitions", "properties", "patternProperties",
            "dependencies", "enum", "type", "allOf", "anyOf", "oneOf", "not", "format",
        ]
        let draft6 = draft4.subtracting(["id"]).union(["$id", "const", "contains", "propertyNames", "examples"])
        let draft7 = draft6.union(["$comment", "if", "then", "else", "readOnly", "writeOnly", "contentMediaType", "contentEncoding"])
        let draft2019 = draft7.subtracting(["definitions", "dependencies"]).union([
            "$anchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "$defs", "dependentSchemas", "dependentRequired",
            "unevaluatedProperties", "unevaluatedItems", "maxContains", "minContains", "deprecated", "contentSchema",
            // Still read for compatibility by most validators, and common in real schemas.
            "definitions", "dependencies",
        ])
        switch draft {
        case .draft4: return draft4
        case .draft6: return draft6
        case .draft7: return draft7
        case .draft2019_09: return draft2019
        case .draft2020_12:
            return draft2019.subtracting(["$recursiveRef", "$recursiveAnchor", "additionalItems"]).union(["$dynamicRef", "$dynamicAnchor", "prefixItems"])
        case .openAPI30:
            return draft4.subtracting(["id", "$schema", "definitions", "dependencies", "patternProperties", "additionalItems"]).union([
                "nullable", "discriminator", "readOnly", "writeOnly", "xml", "externalDocs", "example", "deprecated",
            ])
        }
    }
}
