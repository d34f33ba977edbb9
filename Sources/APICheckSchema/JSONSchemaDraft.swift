/// A JSON Schema dialect: which keywords exist and what they mean.
///
/// Picked from a schema's `$schema` (see `init(metaSchemaURI:)`), else from
/// `JSONSchemaOptions.defaultDraft`. OpenAPI 3.0's schema object has no `$schema`; choose it with
/// `defaultDraft = .openAPI30` (or the `draft:` of `JSONSchemaRegistry.add`).
public enum JSONSchemaDraft: String, Sendable, CaseIterable, Hashable {
    /// Draft 4: `id`, boolean `exclusiveMaximum`/`exclusiveMinimum`, `$ref` siblings ignored.
    case draft4 = "draft4"
    /// Draft 6: `$id`, `const`, `contains`, `propertyNames`, boolean schemas.
    case draft6 = "draft6"
    /// Draft 7: `if`/`then`/`else`.
    case draft7 = "draft7"
    /// 2019-09: vocabularies, `$anchor`, `$recursiveRef`, `unevaluated*`, `dependentSchemas`.
    case draft2019_09 = "2019-09"
    /// 2020-12: `prefixItems`, `$dynamicRef`/`$dynamicAnchor`; the default.
    case draft2020_12 = "2020-12"
    /// OpenAPI 3.0's schema object: draft 4/5 plus `nullable`, `readOnly`/`writeOnly` and
    /// `discriminator`; `$ref` siblings are ignored and `exclusiveMaximum` is a boolean.
    case openAPI30 = "openapi-3.0"

    /// The draft whose meta-schema has this URI (`http://json-schema.org/draft-07/schema#`; the
    /// trailing `#` and the scheme's `s` are optional), or `nil` for any other URI.
    public init?(metaSchemaURI: String) {
        var uri = metaSchemaURI
        if uri.hasSuffix("#") { uri.removeLast() }
        if uri.hasPrefix("https://json-schema.org/draft-0") || uri.hasPrefix("https://json-schema.org/schema") {
            uri = "http" + uri.dropFirst(5)
        }
        switch uri {
        case "http://json-schema.org/draft-04/schema": self = .draft4
        case "http://json-schema.org/draft-06/schema": self = .draft6
        case "http://json-schema.org/draft-07/schema": self = .draft7
        case "https://json-schema.org/draft/2019-09/schema": self = .draft2019_09
        case "https://json-schema.org/draft/2020-12/schema": self = .draft2020_12
        case "https://spec.openapis.org/oas/3.0/schema/2019-04-02", "https://spec.openapis.org/oas/3.0/schema/2021-09-28": self = .openAPI30
        default: return nil
        }
    }

    /// The meta-schema's URI as drafts write it in `$schema`.
    public var metaSchemaURI: String {
        switch self {
        case .draft4: return "http://json-schema.org/draft-04/schema#"
        case .draft6: return "http://json-schema.org/draft-06/schema#"
        case .draft7: return "http://json-schema.org/draft-07/schema#"
        case .draft2019_09: return "https://json-schema.org/draft/2019-09/schema"
        case .draft2020_12: return "https://json-schema.org/draft/2020-12/schema"
        case .openAPI30: return "https://spec.openapis.org/oas/3.0/schema/2021-09-28"
        }
    }

    /// The keyword table of this draft.
    var dialect: Dialect { Dialect.of(self) }
}
