import APICheckJSON

/// A draft's keyword table: which keywords exist, which vocabulary each belongs to, where they
/// hold subschemas (for indexing `$id`s and anchors) and how each compiles.
///
/// Drafts differ here and only here: the compiler looks keywords up in the table of the schema's
/// draft and never asks which draft it is compiling.
struct Dialect: Sendable {
    let draft: JSONSchemaDraft
    let keywords: [String: KeywordDefinition]
    /// `id` (draft 4) or `$id`; OpenAPI 3.0's schema object has neither.
    let idKeyword: String?
    /// Draft 4-7 and OpenAPI 3.0: a schema with `$ref` is only its `$ref`.
    let refOverridesSiblings: Bool
    /// Draft 4-7: `"$id": "#name"` declares an anchor.
    let anchorsInID: Bool
    /// The vocabularies of the draft's own meta-schema (all of them).
    let vocabularies: Set<Vocabulary>

    /// The schema's identifier, when the dialect has one and the schema sets it.
    func id(of schema: JSONValue) -> String? {
        guard let idKeyword, case .string(let id)? = schema[idKeyword] else { return nil }
        return id
    }

    static func of(_ draft: JSONSchemaDraft) -> Dialect {
        switch draft {
        case .draft4: return draft4
        case .draft6: return draft6
        case .draft7: return draft7
        case .draft2019_09: return draft2019
        case .draft2020_12: return draft2020
        case .openAPI30: return openAPI30
        }
    }

    private static let draft4 = Dialect(draft: .draft4, keywords: KeywordTables.draft4, idKeyword: "id", refOverridesSiblings: true, anchorsInID: true, vocabularies: Vocabulary.legacy)
    private static let draft6 = Dialect(draft: .draft6, keywords: KeywordTables.draft6, idKeyword: "$id", refOverridesSiblings: true, anchorsInID: true, vocabularies: Vocabulary.legacy)
    private static let draft7 = Dialect(draft: .draft7, keywords: KeywordTables.draft7, idKeyword: "$id", refOverridesSiblings: true, anchorsInID: true, vocabularies: Vocabulary.legacy)
    private static let draft2019 = Dialect(draft: .draft2019_09, keywords: KeywordTables.draft2019, idKeyword: "$id", refOverridesSiblings: false, anchorsInID: false, vocabularies: Vocabulary.standard2019)
    private static let draft2020 = Dialect(draft: .draft2020_12, keywords: KeywordTables.draft2020, idKeyword: "$id", refOverridesSiblings: false, anchorsInID: false, vocabularies: Vocabulary.standard2020)
    private static let openAPI30 = Dialect(draft: .openAPI30, keywords: KeywordTables.openAPI30, idKeyword: nil, refOverridesSiblings: true, anchorsInID: false, vocabularies: Vocabulary.legacy)
}

/// JSON Schema vocabularies (2019-09 and 2020-12 meta-schemas choose them with `$vocabulary`).
enum Vocabulary: String, Sendable, Hashable {
    case core, applicator, validation, metaData = "meta-data", format, content, unevaluated
    case formatAnnotation = "format-annotation", formatAssertion = "format-assertion"

    /// Drafts before vocabularies: everything is on.
    static let legacy: Set<Vocabulary> = [.core, .applicator, .validation, .metaData, .format, .content, .unevaluated, .formatAnnotation]
    static let standard2019: Set<Vocabulary> = [.core, .applicator, .validation, .metaData, .format, .content]
    static let standard2020: Set<Vocabulary> = [.core, .applicator, .unevaluated, .validation, .metaData, .formatAnnotation, .content]

    /// The vocabulary a `$vocabulary` URI names (`https://json-schema.org/draft/2020-12/vocab/validation`).
    init?(uri: String) {
        guard uri.hasPrefix("https://json-schema.org/draft/2019-09/vocab/") || uri.hasPrefix("https://json-schema.org/draft/2020-12/vocab/"),
            let slash = uri.lastIndex(of: "/"), let vocabulary = Vocabulary(rawValue: String(uri[uri.index(after: slash)...]))
        else { return nil }
        self = vocabulary
    }
}

/// Where a keyword keeps subschemas.
enum SubschemaShape: Sendable, Equatable {
    case none
    case schema
    case schemaArray
    case schemaMap
    /// `items` before 2020-12: a schema or an array of schemas.
    case schemaOrArray
    /// `dependencies`: a map of schemas or of arrays of names.
    case schemaMapOrNames
}

/// A compiled keyword: an ordinary validator, or one that runs after the others with their
/// annotations (`unevaluated*`).
enum CompiledKeyword {
    case keyword(KeywordValidator)
    case unevaluated(any UnevaluatedKeyword)
}

/// Compiles one keyword of a schema object; `[]` when the keyword only annotates or is handled
/// by a sibling (`then` by `if`, `additionalItems` by `items`).
typealias KeywordCompile = @Sendable (inout SchemaCompiler, KeywordSite) throws -> [CompiledKeyword]

/// One row of a keyword table.
struct KeywordDefinition: Sendable {
    let vocabulary: Vocabulary
    let shape: SubschemaShape
    let compile: KeywordCompile?

    init(_ vocabulary: Vocabulary, _ shape: SubschemaShape = .none, _ compile: KeywordCompile? = nil) {
        self.vocabulary = vocabulary
        self.shape = shape
        self.compile = compile
    }
}

/// The tables themselves, built from shared rows.
enum KeywordTables {
    typealias K = KeywordCompilers

    /// Keywords common to every draft.
    private static let base: [String: KeywordDefinition] = [
        "$ref": KeywordDefinition(.core, .none, K.ref),
        "$schema": KeywordDefinition(.core),
        "$comment": KeywordDefinition(.core),
        "definitions": KeywordDefinition(.core, .schemaMap),
        "type": KeywordDefinition(.validation, .none, K.type),
        "enum": KeywordDefinition(.validation, .none, K.enumeration),
        "multipleOf": KeywordDefinition(.validation, .none, K.multipleOf),
        "maximum": KeywordDefinition(.validation, .none, K.maximum),
        "minimum": KeywordDefinition(.validation, .none, K.minimum),
        "exclusiveMaximum": KeywordDefinition(.validation, .none, K.exclusiveMaximum),
        "exclusiveMinimum": KeywordDefinition(.validation, .none, K.exclusiveMinimum),
        "maxLength": KeywordDefinition(.validation, .none, K.maxLength),
        "minLength": KeywordDefinition(.validation, .none, K.minLength),
        "pattern": KeywordDefinition(.validation, .none, K.pattern),
        "maxItems": KeywordDefinition(.validation, .none, K.maxItems),
        "minItems": KeywordDefinition(.validation, .none, K.minItems),
        "uniqueItems": KeywordDefinition(.validation, .none, K.uniqueItems),
        "maxProperties": KeywordDefinition(.validation, .none, K.maxProperties),
        "minProperties": KeywordDefinition(.validation, .none, K.minProperties),
        "required": KeywordDefinition(.validation, .none, K.required),
        "format": KeywordDefinition(.format, .none, K.format),
        "allOf": KeywordDefinition(.applicator, .schemaArray, K.allOf),
        "anyOf": KeywordDefinition(.applicator, .schemaArray, K.anyOf),
        "oneOf": KeywordDefinition(.applicator, .schemaArray, K.oneOf),
        "not": KeywordDefinition(.applicator, .schema, K.not),
        "properties": KeywordDefinition(.applicator, .schemaMap, K.properties),
        "patternProperties": KeywordDefinition(.applicator, .schemaMap, K.patternProperties),
        "additionalProperties": KeywordDefinition(.applicator, .schema, K.additionalProperties),
        "items": KeywordDefinition(.applicator, .schemaOrArray, K.legacyItems),
        "additionalItems": KeywordDefinition(.applicator, .schema),
        "dependencies": KeywordDefinition(.applicator, .schemaMapOrNames, K.dependencies),
        "title": KeywordDefinition(.metaData),
        "description": KeywordDefinition(.metaData),
        "default": KeywordDefinition(.metaData),
    ]

    static let draft4: [String: KeywordDefinition] = base.merging([
        "id": KeywordDefinition(.core),
        "type": KeywordDefinition(.validation, .none, K.draft4Type),
        "minimum": KeywordDefinition(.validation, .none, K.minimumWithBooleanExclusive),
        "maximum": KeywordDefinition(.validation, .none, K.maximumWithBooleanExclusive),
    ]) { $1 }

    /// OpenAPI 3.0: draft 4 with booleans for the exclusive bounds, plus its own keywords.
    static let openAPI30: [String: KeywordDefinition] = draft4.merging([
        "type": KeywordDefinition(.validation, .none, K.openAPIType),
        "nullable": KeywordDefinition(.validation),
        "discriminator": KeywordDefinition(.applicator, .none, K.discriminator),
        "oneOf": KeywordDefinition(.applicator, .schemaArray, K.openAPIOneOf),
        "anyOf": KeywordDefinition(.applicator, .schemaArray, K.openAPIAnyOf),
        "required": KeywordDefinition(.validation, .none, K.openAPIRequired),
        "properties": KeywordDefinition(.applicator, .schemaMap, K.openAPIProperties),
        "readOnly": KeywordDefinition(.metaData),
        "writeOnly": KeywordDefinition(.metaData),
        "example": KeywordDefinition(.metaData),
        "deprecated": KeywordDefinition(.metaData),
    ]) { $1 }

    static let draft6: [String: KeywordDefinition] = base.merging([
        "$id": KeywordDefinition(.core),
        "const": KeywordDefinition(.validation, .none, K.const),
        "contains": KeywordDefinition(.applicator, .schema, K.legacyContains),
        "propertyNames": KeywordDefinition(.applicator, .schema, K.propertyNames),
        "examples": KeywordDefinition(.metaData),
    ]) { $1 }

    static let draft7: [String: KeywordDefinition] = draft6.merging([
        "if": KeywordDefinition(.applicator, .schema, K.conditional),
        "then": KeywordDefinition(.applicator, .schema),
        "else": KeywordDefinition(.applicator, .schema),
        "readOnly": KeywordDefinition(.metaData),
        "writeOnly": KeywordDefinition(.metaData),
        "contentMediaType": KeywordDefinition(.content),
        "contentEncoding": KeywordDefinition(.content),
    ]) { $1 }

    static let draft2019: [String: KeywordDefinition] = {
        var table = draft7.merging([
            "$anchor": KeywordDefinition(.core),
            "$defs": KeywordDefinition(.core, .schemaMap),
            "$vocabulary": KeywordDefinition(.core),
            "$recursiveRef": KeywordDefinition(.core, .none, K.recursiveRef),
            "$recursiveAnchor": KeywordDefinition(.core),
            "contains": KeywordDefinition(.applicator, .schema, K.contains),
            "minContains": KeywordDefinition(.validation),
            "maxContains": KeywordDefinition(.validation),
            "dependentRequired": KeywordDefinition(.validation, .none, K.dependentRequired),
            "dependentSchemas": KeywordDefinition(.applicator, .schemaMap, K.dependentSchemas),
            "unevaluatedProperties": KeywordDefinition(.applicator, .schema, K.unevaluatedProperties),
            "unevaluatedItems": KeywordDefinition(.applicator, .schema, K.unevaluatedItems),
            "contentSchema": KeywordDefinition(.content, .schema),
            "deprecated": KeywordDefinition(.metaData),
        ]) { $1 }
        // Kept from draft 7 for compatibility, as other validators do (the suite's optional tests).
        table["dependencies"] = KeywordDefinition(.applicator, .schemaMapOrNames, K.dependencies)
        return table
    }()

    static let draft2020: [String: KeywordDefinition] = {
        var table = draft2019.merging([
            "$dynamicRef": KeywordDefinition(.core, .none, K.dynamicRef),
            "$dynamicAnchor": KeywordDefinition(.core),
            "prefixItems": KeywordDefinition(.applicator, .schemaArray, K.prefixItems),
            "items": KeywordDefinition(.applicator, .schema, K.items),
            "contains": KeywordDefinition(.applicator, .schema, K.containsAnnotating),
            "unevaluatedProperties": KeywordDefinition(.unevaluated, .schema, K.unevaluatedProperties),
            "unevaluatedItems": KeywordDefinition(.unevaluated, .schema, K.unevaluatedItems),
            "format": KeywordDefinition(.formatAnnotation, .none, K.format),
        ]) { $1 }
        table["$recursiveRef"] = nil
        table["$recursiveAnchor"] = nil
        table["additionalItems"] = nil
        return table
    }()
}
