import APICheckJSON

/// A compiled JSON Schema: immutable, `Sendable`, meant to be built once and used from any
/// number of tasks.
///
/// Compiling resolves every `$ref` (through the registry and its `retrieve`), checks every
/// keyword's value and compiles `pattern`s, so a schema that compiles cannot fail later for
/// reasons of its own. `isValid` is the fast path (nothing is allocated for a valid instance of
/// an ordinary schema); `validate` reports every failing keyword in JSON Schema's basic output.
///
/// Limits (`maximumEvaluationDepth`, `regexStepBudget`) never make an instance valid: one reached
/// anywhere, even under `not` or in an `if`, makes the whole instance invalid, with an error of
/// keyword "evaluationLimit" that says where.
///
/// ```swift
/// let schema = try JSONSchema(try JSONParser().parse(bytes), file: "movie.schema.json")
/// if !schema.isValid(instance) {
///     for unit in schema.validate(instance).errors { print(unit.instanceLocation, unit.error) }
/// }
/// ```
public struct JSONSchema: Sendable {
    let program: SchemaProgram
    /// The draft the root schema is read in (`$schema`, else `JSONSchemaOptions.defaultDraft`).
    public let draft: JSONSchemaDraft
    /// The root schema's base URI: its `$id` resolved against the `baseURI` given, or that URI.
    public let baseURI: String
    /// The `pattern`s left unchecked because they are not ECMA-262 (only under
    /// `JSONSchemaOptions.unusablePatterns = .ignore`), each located like a compile error.
    public let ignoredPatterns: [JSONSchemaError]

    /// Compiles a schema read with positions; errors point at `file:line:col`.
    public init(_ schema: JSONNode, file: String? = nil, baseURI: String? = nil,
                registry: JSONSchemaRegistry = .init(), options: JSONSchemaOptions = .init()) throws(JSONSchemaError)
    {
        (program, draft, self.baseURI, ignoredPatterns) = try Self.compile(schema.value, node: schema, file: file, baseURI: baseURI, registry: registry, options: options)
    }

    /// Compiles a schema value (errors carry a keyword location but no line).
    public init(_ schema: JSONValue, baseURI: String? = nil,
                registry: JSONSchemaRegistry = .init(), options: JSONSchemaOptions = .init()) throws(JSONSchemaError)
    {
        (program, draft, self.baseURI, ignoredPatterns) = try Self.compile(schema, node: nil, file: nil, baseURI: baseURI, registry: registry, options: options)
    }

    private static func compile(_ value: JSONValue, node: JSONNode?, file: String?, baseURI: String?, registry: JSONSchemaRegistry,
                                options: JSONSchemaOptions) throws(JSONSchemaError) -> (SchemaProgram, JSONSchemaDraft, String, [JSONSchemaError])
    {
        var registry = registry
        do {
            var draft = options.defaultDraft
            if case .string(let metaSchema)? = value["$schema"] {
                if let known = JSONSchemaDraft(metaSchemaURI: metaSchema) {
                    draft = known
                } else {
                    _ = try? registry.lookup(URIReference.stripFragment(metaSchema), contextDraft: options.defaultDraft)
                    draft = registry.draftOfMetaSchema(metaSchema) ?? options.defaultDraft
                }
            }
            let uri = URIReference.stripFragment(baseURI ?? "")
            let document = try registry.addDocument(value, node: node, uri: uri, file: file, draft: draft)
            guard let target = try registry.lookup(uri, contextDraft: draft), target.location.document == document else {
                throw JSONSchemaError(message: "the schema cannot be found in its own registry", file: file)
            }
            var compiler = SchemaCompiler(registry: registry, options: options)
            let program = try compiler.compileProgram(root: target)
            return (program, draft, target.baseURI, compiler.ignoredPatterns)
        } catch let error as JSONSchemaError {
            throw error
        } catch {
            throw JSONSchemaError(message: "\(error)", file: file)
        }
    }

    /// Whether `instance` is valid. Allocates nothing for a valid instance (beyond what
    /// `unevaluated*` over more than 64 members and `$dynamicRef` scopes need).
    public func isValid(_ instance: JSONValue) -> Bool {
        var context = ValidationContext(program: program, collecting: false)
        // A limit reached anywhere (even under `not`) makes the whole instance invalid.
        return program.root.isValid(instance, &context) && context.limit == nil
    }

    /// Validates `instance` and reports every failing keyword (JSON Schema's basic output).
    public func validate(_ instance: JSONValue) -> JSONSchemaOutput {
        var fast = ValidationContext(program: program, collecting: false)
        if program.root.isValid(instance, &fast), fast.limit == nil { return JSONSchemaOutput(valid: true, errors: []) }
        var context = ValidationContext(program: program, collecting: true)
        program.root.validate(instance, &context)
        // The collecting pass knows where; the fast pass may have been the only one to get there.
        if let limit = context.limit ?? fast.limit { context.reportLimit(limit) }
        if context.errors.isEmpty {
            // Every keyword passed on its own but the whole did not (should not happen): say so.
            context.report("", "the value does not match the schema")
        }
        return JSONSchemaOutput(valid: false, errors: context.errors)
    }
}
