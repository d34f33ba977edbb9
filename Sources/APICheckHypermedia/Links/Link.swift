import APICheckModel

/// One hypermedia link found in a response (FORMATS §5): where it came from, what it says, and
/// where it leads.
///
/// Links are data for the crawl engine and the contract rules: the extractor records what the
/// document wrote (``href``, ``type``, ``method``… as written) and resolves what it can
/// (``target``); it does not judge (duplicate rels, invalid methods and types are the rules' job).
public struct Link: Sendable, Hashable, CustomStringConvertible {
    /// Where a link leads, as far as the extractor could tell.
    public enum Target: Sendable, Hashable {
        /// An absolute URL, resolved against ``Link/base`` (RFC 3986 §5.2); ready to fetch.
        case url(String)
        /// A valid RFC 6570 template: expand it with ``Link/resolve(with:)`` first.
        case template(URITemplate)
        /// The href is templated but not valid RFC 6570 (the `template-valid` rule).
        case invalidTemplate(URITemplateError)
        /// The href cannot be resolved; the reason says why (not a URI reference, no absolute
        /// base, no target at all).
        case unresolvable(String)
    }

    /// The URL of the resource that advertised the link: the response URL, or a `Link`
    /// header's `anchor` resolved against it.
    public var context: String
    /// The URL relative hrefs resolve against: the response URL.
    public var base: String
    /// The relation type: CURIEs expanded to the full URI, `Link` header rels lower-cased.
    /// Siren actions, HAL-FORMS templates: the action or template name.
    public var rel: String
    /// The compact form when ``rel`` was expanded from a HAL CURIE (`acme:widgets`).
    public var compactRel: String?
    /// The href (or template, or HAL-FORMS target) exactly as written; for a HAL-FORMS template
    /// without `target`, its resource's `self` href (`""` for the document itself).
    public var href: String
    /// Where the link leads: a URL, a template, or why neither.
    public var target: Target
    /// As written; `GET` when the format has no method or the document gave none. Vendor tokens
    /// (PayPal's `REDIRECT`) are kept.
    public var method: String
    /// The declared media type of the target, as written (`type`).
    public var type: String?
    /// The human-readable title (`title`; Collection+JSON and HAL-FORMS `prompt`).
    public var title: String?
    /// HAL and Collection+JSON `name`; for JSON:API relationship links, the relationship name.
    public var name: String?
    /// HAL `deprecation`: a URL explaining why the link is deprecated.
    public var deprecation: String?
    /// HAL `profile`.
    public var profile: String?
    /// The language of the target (`hreflang`).
    public var hreflang: String?
    /// AcmeFlix/PayPal `parameters`, in order.
    public var parameters: [LinkParameter]
    /// The format the link was found in.
    public var format: LinkFormat
    /// Where the link was written (JSON pointer, XML path, `Link header #n`).
    public var source: LinkSource
    /// Where the resource that carries the link is described in the body: a JSON pointer or
    /// XML path (`""` for the document itself and for `Link` headers).
    public var owner: String
    /// `true` when the link belongs to a resource nested in the representation (a HAL
    /// `_embedded` resource, an item of a list, a JSON:API resource or relationship, a Siren
    /// sub-entity, an Atom entry) or to another resource named by a `Link` header `anchor`: its
    /// `self` names that resource, not the one fetched.
    public var isNested: Bool
    /// Siren action fields, HAL-FORMS properties, Collection+JSON query data.
    public var fields: [FormField]
    /// The body type a Siren action or HAL-FORMS template expects (after the format's default).
    public var contentType: String?

    /// A link; the extractor makes them, tests and other fetchers may too.
    public init(
        context: String, base: String, rel: String, compactRel: String? = nil, href: String, target: Target,
        method: String = "GET", type: String? = nil, title: String? = nil, name: String? = nil,
        deprecation: String? = nil, profile: String? = nil, hreflang: String? = nil, parameters: [LinkParameter] = [],
        format: LinkFormat, source: LinkSource, owner: String = "", isNested: Bool = false, fields: [FormField] = [],
        contentType: String? = nil
    ) {
        self.context = context
        self.base = base
        self.rel = rel
        self.compactRel = compactRel
        self.href = href
        self.target = target
        self.method = method
        self.type = type
        self.title = title
        self.name = name
        self.deprecation = deprecation
        self.profile = profile
        self.hreflang = hreflang
        self.parameters = parameters
        self.format = format
        self.source = source
        self.owner = owner
        self.isNested = isNested
        self.fields = fields
        self.contentType = contentType
    }

    /// The resolved absolute URL, or `nil` when the link is templated or unresolvable.
    public var url: String? {
        if case .url(let url) = target { return url }
        return nil
    }

    /// Whether the href is a URI template (valid or not).
    public var isTemplated: Bool {
        switch target {
        case .template, .invalidTemplate: true
        case .url, .unresolvable: false
        }
    }

    /// The template, when the href is a valid one.
    public var template: URITemplate? {
        if case .template(let template) = target { return template }
        return nil
    }

    /// `rel → href (format at source)`.
    public var description: String {
        "\(rel) → \(href) (\(format) at \(source))"
    }

    /// Makes the target for `href` as a document wrote it: a template when `templated` says so
    /// or the href contains `{` (never fetched literally), otherwise the reference resolved
    /// against `base`; characters outside ASCII are percent-encoded (IRI → URI).
    public static func target(forHref href: String, base: String, templated: Bool = false) -> Target {
        if templated || URITemplate.looksTemplated(href) {
            do {
                let template = try URITemplate(href)
                if template.isTemplated { return .template(template) }
            } catch {
                return .invalidTemplate(error)
            }
        }
        return resolvedTarget(href, base: base)
    }

    private static func resolvedTarget(_ reference: String, base: String) -> Target {
        if let problem = URLResolution.problem(in: reference) {
            return .unresolvable("'\(reference.excerpt(200))' is not a valid URI reference: \(problem)")
        }
        guard let resolved = URLResolution.resolve(URLResolution.encodingNonASCII(reference), against: base) else {
            return .unresolvable("'\(reference.excerpt(200))' is relative and the base '\(base.excerpt(200))' is not an absolute URL")
        }
        return .url(resolved)
    }

    /// What the crawler can do with a link.
    public enum Resolution: Sendable, Hashable {
        /// Fetch this absolute URL.
        case url(String)
        /// Not checked: the template needs values for these variables (FORMATS §5).
        case needsVariables([String])
        /// Not checked: the template is not valid RFC 6570, or its expansion failed.
        case invalidTemplate(URITemplateError)
        /// Not checked: the target cannot be resolved.
        case unresolvable(String)
    }

    /// The URL to check, expanding a template with `variables` (from `--var`) and the link's own
    /// concrete ``parameters`` of the same names (`--var` wins). A template whose variables all sit
    /// in query expressions (`{?page}`) expands with whatever is known, possibly nothing; any
    /// other missing variable makes the link ``Resolution/needsVariables(_:)``, never fetched
    /// with `{id}` in it.
    public func resolve(with variables: [String: URITemplate.Value] = [:]) -> Resolution {
        switch target {
        case .url(let url):
            return .url(url)
        case .unresolvable(let reason):
            return .unresolvable(reason)
        case .invalidTemplate(let error):
            return .invalidTemplate(error)
        case .template(let template):
            var values = variables
            for parameter in parameters where values[parameter.name] == nil {
                if let value = parameter.concreteValue { values[parameter.name] = .string(value) }
            }
            let missing = template.missingVariables(for: values)
            guard missing.isEmpty else { return .needsVariables(missing) }
            let expanded: String
            do {
                expanded = try template.expand(values)
            } catch {
                return .invalidTemplate(error)
            }
            switch Self.resolvedTarget(expanded, base: base) {
            case .url(let url): return .url(url)
            case .unresolvable(let reason): return .unresolvable(reason)
            case .template, .invalidTemplate: return .unresolvable("the expansion '\(expanded.excerpt(200))' is not a URI reference")
            }
        }
    }
}
