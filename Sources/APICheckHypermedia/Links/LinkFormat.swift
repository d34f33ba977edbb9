/// The hypermedia format a link was found in (FORMATS §5).
public enum LinkFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// HAL `_links` keyed by rel, objects or arrays of objects (including `_embedded` resources).
    case hal = "hal"
    /// HAL-FORMS `_templates` (method, target, contentType, properties).
    case halForms = "hal-forms"
    /// An array of `{rel, href, type?, method?, parameters?}` under `_links` or `links` (AcmeFlix, PayPal).
    case linkArray = "link-array"
    /// JSON:API `links` (top level, resources, relationships, errors).
    case jsonAPI = "json-api"
    /// A Siren link or embedded-link sub-entity.
    case sirenLink = "siren-link"
    /// A Siren action.
    case sirenAction = "siren-action"
    /// Collection+JSON `href`, `links`, `items`, `queries`.
    case collectionJSON = "collection-json"
    /// An RFC 8288 `Link` header field.
    case linkHeader = "link-header"
    /// An XML `<link>` element (Atom or any other namespace).
    case xml = "xml"
    /// A URL-valued JSON field (`"next": "…"`, GitHub's `…_url`, a DRF root's `"books": "…"`).
    case plainJSON = "plain-json"
    /// Not in the response: an OpenAPI Link Object of the response's operation, its parameters
    /// filled from the answer (`crawl --openapi`).
    case openAPILink = "openapi-link"
    /// Not in the response: a documented GET operation whose path parameters the answer's values
    /// fill (an `id` of an item in a list), what Schemathesis calls stateful testing.
    case openAPIFill = "openapi-fill"

    /// How reports name the format.
    public var displayName: String {
        switch self {
        case .hal: "HAL"
        case .halForms: "HAL-FORMS"
        case .linkArray: "link array"
        case .jsonAPI: "JSON:API"
        case .sirenLink: "Siren link"
        case .sirenAction: "Siren action"
        case .collectionJSON: "Collection+JSON"
        case .linkHeader: "Link header"
        case .xml: "Atom/XML"
        case .plainJSON: "plain JSON"
        case .openAPILink: "OpenAPI link"
        case .openAPIFill: "OpenAPI parameter fill"
        }
    }

    /// The ``displayName``.
    public var description: String { displayName }
}
