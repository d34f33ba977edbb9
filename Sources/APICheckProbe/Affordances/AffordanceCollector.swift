import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckJSON
import APICheckModel
import Synchronization

/// Collects, while a crawl runs, what `apicheck probe` will probe: every write affordance the
/// API advertises, once per place in the API's shape (a form that every item repeats is probed on
/// the first item), and every templated read once per template, plus the URLs the crawl fetched (templates are
/// inferred from them where nothing is templated) and the `DELETE`s it advertises (to clean up
/// what the probe creates).
public final class AffordanceCollector: CrawlObserver {
    private struct State {
        var writes: [Affordance] = []
        var reads: [Affordance] = []
        var places: Set<String> = []
        var fetched: [(url: String, group: String)] = []
        var deletable: Set<String> = []
    }

    private let state = Mutex(State())
    /// Bounds what a hostile API can make the probe hold: affordances and URLs kept.
    let maximumAffordances: Int
    let maximumFetchedURLs: Int

    public init(maximumAffordances: Int = 1_000, maximumFetchedURLs: Int = 100_000) {
        self.maximumAffordances = maximumAffordances
        self.maximumFetchedURLs = maximumFetchedURLs
    }

    /// The writes found, in discovery order.
    public var writes: [Affordance] { state.withLock { $0.writes } }
    /// The templated reads advertised, in discovery order.
    public var reads: [Affordance] { state.withLock { $0.reads } }
    /// Every 2xx resource fetched, with its kind (the rel path with indices stripped).
    public var fetched: [(url: String, group: String)] { state.withLock { $0.fetched } }

    /// Whether the API advertised `DELETE` on `url` (a link, an action, a form on it).
    public func advertisesDelete(on url: String) -> Bool {
        state.withLock { $0.deletable.contains(URLResolution.normalisedKey(url)) }
    }

    public func crawled(_ resource: CrawledResource) {
        var found: [Affordance] = []
        var deletable: [String] = []
        for (link, relPath) in resource.links {
            let method = link.method.uppercased()
            if method == "DELETE", let url = link.url { deletable.append(URLResolution.normalisedKey(url)) }
            if let write = Self.write(link, relPath: relPath, referrer: resource.url) { found.append(write) }
            if method == "GET", let read = Self.read(link, relPath: relPath, referrer: resource.url) { found.append(read) }
        }
        if let body = resource.body, let contentType = resource.contentType {
            found += BodyAffordances.of(body, contentType: contentType, url: resource.url, relPath: resource.relPath)
        }
        state.withLock { state in
            state.deletable.formUnion(deletable)
            if let status = resource.status, (200..<300).contains(status), state.fetched.count < maximumFetchedURLs {
                state.fetched.append((resource.url, RelPath.shape(resource.relPath)))
            }
            for affordance in found where state.writes.count + state.reads.count < maximumAffordances {
                // A read is its template: two links to /items/{id} are one thing to probe. A form is
                // probed once per place (every item repeats it) and once per target (reached by
                // two paths, a collection and its self).
                let keys = affordance.kind == .templatedRead
                    ? ["GET \(affordance.target)"]
                    : ["\(affordance.method) \(affordance.place) \(affordance.rel)", "\(affordance.method) \(affordance.target) \(affordance.rel)"]
                guard !keys.contains(where: state.places.contains) else { continue }
                state.places.formUnion(keys)
                if affordance.kind == .templatedRead { state.reads.append(affordance) } else { state.writes.append(affordance) }
            }
        }
    }

    /// A link with an unsafe method that takes a body (a form, an action, a link with parameters),
    /// or a `GET` form with fields (a search, probed through its query).
    static func write(_ link: Link, relPath: RelPath, referrer: String) -> Affordance? {
        let method = link.method.uppercased()
        let isQueryForm = method == "GET" && !link.fields.isEmpty && !link.isTemplated
        guard ["POST", "PUT", "PATCH"].contains(method) || isQueryForm, let url = link.url else { return nil }
        let schema: JSONValue
        var example: [JSONMember] = []
        if !link.fields.isEmpty {
            schema = FormSchema.schema(for: link.fields, contentType: link.contentType)
            for field in link.fields where !field.isReadOnly {
                if let value = field.value, value != .string("") { example.append(JSONMember(field.name, value)) }
            }
        } else {
            schema = FormSchema.schema(forParameters: link.parameters)
            for parameter in link.parameters {
                if let value = parameter.value, parameter.concreteValue != nil { example.append(JSONMember(parameter.name, value)) }
            }
        }
        let takesBody = !link.fields.isEmpty || !link.parameters.isEmpty
        return Affordance(
            kind: isQueryForm ? .queryForm : .write, method: method, target: url, rel: link.rel, format: link.format.displayName, relPath: relPath,
            sourcePointer: link.source.path, referrer: referrer,
            requestContentType: link.contentType ?? (takesBody ? "application/json" : nil), responseType: link.type,
            bodySchema: schema, examples: example.isEmpty ? [] : [.object(example)])
    }

    /// A `GET` link whose href is a template (`/items/{id}`, and `/books{?page,size}` too: edge
    /// values in a query crash servers as well; a read probe only ever reports a 5xx).
    static func read(_ link: Link, relPath: RelPath, referrer: String) -> Affordance? {
        guard let template = link.template, !template.variableNames.isEmpty,
            let absolute = absoluteTemplate(template.source, base: link.base)
        else { return nil }
        var observed: [String: [String]] = [:]
        for parameter in link.parameters {
            if let value = parameter.concreteValue { observed[parameter.name, default: []].append(value) }
        }
        return Affordance(
            kind: .templatedRead, method: "GET", target: absolute, rel: link.rel, format: link.format.displayName, relPath: relPath,
            sourcePointer: link.source.path, referrer: referrer, responseType: link.type, observedValues: observed)
    }

    /// The template with its literal start resolved against `base` (a relative `/items/{id}`).
    static func absoluteTemplate(_ source: String, base: String) -> String? {
        let brace = source.firstIndex(of: "{") ?? source.endIndex
        let literal = String(source[..<brace])
        guard let resolved = URLResolution.resolve(literal.isEmpty ? "." : literal, against: base) else { return nil }
        let start = literal.isEmpty ? String(resolved.prefix { $0 != "?" }) : resolved
        return start + source[brace...]
    }
}
