/// Bounds on reading one OpenAPI document, so a hostile one (a YAML bomb, a 50 MB file, a
/// thousand-level nesting, a `$ref` web) is a quick located error instead of a hang.
public struct OpenAPIReadLimits: Sendable, Hashable {
    /// Bytes of one file (the document or an external `$ref` file).
    public var maximumBytes = 16 * 1024 * 1024
    /// Nodes visited while reading a YAML file, every visit through an alias counted again: the
    /// billion-laughs document (nine levels of ten aliases) reaches this after a million visits
    /// and stops in well under a second, instead of expanding to a billion nodes.
    public var maximumNodes = 2_000_000
    /// Nesting of objects and arrays.
    public var maximumDepth = 200
    /// External files a document may reference through `$ref`, transitively.
    public var maximumExternalFiles = 64
    /// Response schemas compiled for one document; each is compiled once and kept.
    public var maximumCompiledSchemas = 4_096

    public init() {}
}
