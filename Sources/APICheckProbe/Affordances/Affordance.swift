import APICheckFindings
import APICheckJSON

/// Something an API tells clients they may do, found while crawling it: a write (a form, an
/// action, a collection that takes a POST) or a templated read (`/items/{id}`).
///
/// The probe generates requests against each; findings about them are placed where the
/// affordance was advertised (its rel path, its source pointer), so one bug behind a form that
/// every item repeats is one defect.
public struct Affordance: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// An unsafe method with a body: needs `--unsafe`.
        case write
        /// A `GET` form (a search: HAL-FORMS, a Siren action): its fields sent as a query; safe.
        case queryForm
        /// A safe `GET` of a URI template: needs only `probe`.
        case templatedRead
    }

    /// How a generated flat object becomes the body a format expects.
    public enum BodyShape: Sendable, Hashable {
        /// The object itself (JSON), or its members as `name=value` pairs (form-encoded).
        case plain
        /// Collection+JSON's write template: `{"template": {"data": [{"name", "value"}…]}}`.
        case collectionJSONTemplate
        /// A JSON:API resource object of the collection's type: `{"data": {"type", "attributes"}}`.
        case jsonAPIResource(type: String)
    }

    public var kind: Kind
    public var method: String
    /// The URL a write goes to, or the RFC 6570 template of a read (absolute).
    public var target: String
    /// The rel (HAL-FORMS template name, Siren action name, link rel; `template` for
    /// Collection+JSON, `create` for a JSON:API collection).
    public var rel: String
    /// How reports name where it was found (`HAL-FORMS`, `Siren action`, `JSON:API`, `inferred`).
    public var format: String
    /// The rels followed from the root to the affordance.
    public var relPath: RelPath
    /// Where it was written in the representation that advertised it.
    public var sourcePointer: String?
    /// The resource that advertised it.
    public var referrer: String
    /// The body's declared type (writes); JSON when the format says nothing.
    public var requestContentType: String?
    /// The media type the answer is declared to have, when the affordance says (a link's `type`,
    /// JSON:API's own type); checked by `probe-response-type`.
    public var responseType: String?
    /// A JSON Schema of the flat body object (writes), from the advertised fields.
    public var bodySchema: JSONValue?
    /// Values the affordance itself shows (current values, a form's defaults), tried first.
    public var examples: [JSONValue]
    public var bodyShape: BodyShape
    /// Reads: real values seen per template variable (ids of the items the crawl fetched).
    public var observedValues: [String: [String]]
    /// Reads: the template was inferred from URLs the crawl saw, not advertised.
    public var isInferred: Bool

    public init(
        kind: Kind, method: String, target: String, rel: String, format: String, relPath: RelPath, sourcePointer: String?,
        referrer: String, requestContentType: String? = nil, responseType: String? = nil, bodySchema: JSONValue? = nil,
        examples: [JSONValue] = [], bodyShape: BodyShape = .plain, observedValues: [String: [String]] = [:], isInferred: Bool = false
    ) {
        self.kind = kind
        self.method = method
        self.target = target
        self.rel = rel
        self.format = format
        self.relPath = relPath
        self.sourcePointer = sourcePointer
        self.referrer = referrer
        self.requestContentType = requestContentType
        self.responseType = responseType
        self.bodySchema = bodySchema
        self.examples = examples
        self.bodyShape = bodyShape
        self.observedValues = observedValues
        self.isInferred = isInferred
    }

    /// `POST default (HAL-FORMS)`, `GET item (HAL, templated)`: how the plan and messages name it.
    public var name: String {
        "\(method) \(rel) (\(format)\(kind == .templatedRead ? (isInferred ? ", inferred template" : ", templated") : ""))"
    }

    /// Where it is in the API's shape, for `--only`/`--skip` and de-duplication: the rel path
    /// with indices stripped (`root → authors → items[] → edit`).
    public var place: String { RelPath.shape(relPath) }
}
