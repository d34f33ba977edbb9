import APICheckModel
import APICheckSpool

/// The contract rules of `apicheck crawl` (FORMATS §6) and the drift rules of `apicheck verify`. The raw values are stable ids: they
/// appear in every report, in baselines and in `--rule id=level`, and never change meaning.
///
/// ```swift
/// let rule = RuleID(rawValue: "link-resolves")   // .linkResolves
/// rule?.defaultSeverity                          // .error
/// ```
public enum RuleID: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// A GET link answers 2xx.
    case linkResolves = "link-resolves"
    /// The method is valid and accepted.
    case methodValid = "method-valid"
    /// The served type matches the declared one.
    case typeMatches = "type-matches"
    /// Media types are valid and registered.
    case typeSyntax = "type-syntax"
    /// A body validates against the JSON Schema of its media type's profile.
    case bodySchema = "body-schema"
    /// A 2xx with a body has a Content-Type.
    case contentTypePresent = "content-type-present"
    /// A self link points back to its resource.
    case selfConsistent = "self-consistent"
    /// No rel twice with different targets.
    case duplicateRel = "duplicate-rel"
    /// The representation follows its format.
    case formatShape = "format-shape"
    /// Templated hrefs are valid RFC 6570.
    case templateValid = "template-valid"
    /// No limit of the crawl (links per response, body size, depth, requests) dropped work.
    case crawlLimit = "crawl-limit"
    /// The live API answers the status the stub records.
    case driftStatus = "drift-status"
    /// The live API serves the Content-Type the stub records.
    case driftType = "drift-type"
    /// The live API advertises the links the stub records.
    case driftLinks = "drift-links"
    /// The live JSON body has the shape the stub records.
    case driftShape = "drift-shape"
    /// A compared header has the value the stub records.
    case driftHeader = "drift-header"
    /// With `verify --coverage`: a kind of resource the live API links to has a stub.
    case driftCoverage = "drift-coverage"
    /// With `--openapi`: the answer's method and path are an operation of the document.
    case openAPIOperation = "openapi-operation"
    /// With `--openapi`: the status is documented for the operation.
    case openAPIStatus = "openapi-status"
    /// With `--openapi`: the served type is one of the response's media types.
    case openAPIContentType = "openapi-content-type"
    /// With `--openapi`: the body validates against the response's schema.
    case openAPIBody = "openapi-body"
    /// With `--openapi`: the response's required headers are present.
    case openAPIHeader = "openapi-header"
    /// `apicheck probe`: a generated request got a 5xx, or the connection was reset.
    case probeServerError = "probe-server-error"
    /// `apicheck probe`: an answer's type or body disagrees with what the affordance declares.
    case probeResponseType = "probe-response-type"
    /// `apicheck probe`: a 2xx to a body that breaks the constraints the affordance advertises.
    case probeAcceptsInvalid = "probe-accepts-invalid"
    /// `apicheck probe`: a 201's `Location` (or `self`) does not resolve with GET.
    case probeCreatedResolves = "probe-created-resolves"

    /// The rules whose findings a report of `command` can hold, sorted: reports list these (a
    /// JUnit suite per rule, SARIF's rule table), not the other command's.
    public static func rules(of command: ReportCommand) -> [RuleID] {
        allCases.filter { $0.commands.contains(command) }.sorted()
    }

    /// The command whose reports this rule's findings appear in first (`body-schema` also appears
    /// in verify's).
    public var command: ReportCommand {
        switch self {
        case .driftStatus, .driftType, .driftLinks, .driftShape, .driftHeader, .driftCoverage: .verify
        case .probeServerError, .probeResponseType, .probeAcceptsInvalid, .probeCreatedResolves: .probe
        default: .crawl
        }
    }

    /// Every command whose reports hold this rule's findings.
    public var commands: Set<ReportCommand> {
        // A probe crawls first: its reports hold the crawl's rules too.
        switch command {
        case .crawl: self == .bodySchema ? [.crawl, .verify, .probe] : [.crawl, .probe]
        case .verify, .probe: [command]
        }
    }

    /// Ordered by id, so sorted output reads alphabetically.
    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The stable id, e.g. `link-resolves`.
    public var description: String { rawValue }

    /// The severity a finding of this rule has unless `--rule` says otherwise.
    public var defaultSeverity: Severity {
        switch self {
        case .linkResolves, .methodValid, .typeMatches, .bodySchema, .contentTypePresent, .templateValid: .error
        case .openAPIStatus, .openAPIContentType, .openAPIBody: .error
        case .openAPIOperation, .openAPIHeader: .warning
        case .probeServerError, .probeResponseType, .probeCreatedResolves: .error
        case .probeAcceptsInvalid: .warning
        case .driftStatus, .driftType, .driftLinks, .driftShape, .driftHeader: .error
        case .typeSyntax, .selfConsistent, .duplicateRel, .formatShape, .crawlLimit, .driftCoverage: .warning
        }
    }

    /// One line: what the rule checks (SARIF `shortDescription`, table headings).
    public var summary: String {
        switch self {
        case .linkResolves: "A GET link answers 2xx."
        case .methodValid: "A link's method is a valid HTTP method that the target accepts."
        case .typeMatches: "The response's Content-Type matches the link's declared type, and the body agrees with it."
        case .typeSyntax: "Declared and served media types are valid, registered media types."
        case .bodySchema: "A body validates against the JSON Schema its media type's profile names."
        case .contentTypePresent: "A successful response with a body has a Content-Type."
        case .selfConsistent: "A self link points back to the resource it was found on."
        case .duplicateRel: "A rel does not appear twice with different targets or attributes."
        case .formatShape: "The representation follows the hypermedia format it claims."
        case .templateValid: "A templated href is a valid RFC 6570 URI template."
        case .crawlLimit: "No limit of the crawl dropped work: every link was extracted, every body read whole, every target reached."
        case .openAPIOperation: "With --openapi: every answer the crawl reaches is an operation (server, path, method) of the document."
        case .openAPIStatus: "With --openapi: the status is documented for the operation (or it has a default response)."
        case .openAPIContentType: "With --openapi: the served Content-Type is one of the documented response's media types."
        case .openAPIBody: "With --openapi: the body validates against the documented response's schema."
        case .openAPIHeader: "With --openapi: every header the documented response requires is present."
        case .driftStatus: "The live API answers a stub's request with the status the stub records."
        case .driftType: "The live API serves the Content-Type the stub records."
        case .driftLinks: "The live API advertises the same rels as the stub, with the same method, type and templating."
        case .driftShape: "The live JSON body has the fields and JSON types the stub's body has."
        case .driftHeader: "A header named with --compare-header has the value the stub records."
        case .driftCoverage: "With --coverage: every kind of resource the live API links to is answered by a stub."
        case .probeServerError: "apicheck probe: no generated request gets a 5xx or a reset connection."
        case .probeResponseType: "apicheck probe: every answer to a generated request has the type (and body) the affordance declares."
        case .probeAcceptsInvalid: "apicheck probe: a body that breaks the advertised constraints is not accepted with 2xx."
        case .probeCreatedResolves: "apicheck probe: what a 201 names (Location, self) resolves with GET."
        }
    }

    /// A paragraph: what is checked, why it matters and how to fix it (SARIF `fullDescription`
    /// and `help`, docs/reports.md).
    public var explanation: String {
        switch self {
        case .linkResolves:
            "Every GET link the API advertises must lead somewhere: the crawler follows it (redirects "
                + "followed, bounded) and expects a 2xx status. A 4xx or 5xx answer, a network failure or a "
                + "timeout is a broken link that clients will hit. The finding carries the path of rels from "
                + "the root so the link can be found in the representation that advertised it. Fix the "
                + "target, or stop advertising the link."
        case .methodValid:
            "A link's method must be an HTTP method token (RFC 9110, plus PATCH) or an allowed vendor "
                + "token. Unsafe methods are not sent to a live API unless --unsafe is given: the crawler "
                + "asks OPTIONS and reads Allow where the server supports it and otherwise reports the link "
                + "as unverified; against stubs, a stub must exist for that method and URL, or the stubs' "
                + "answer to OPTIONS there must allow it (a recording of a live crawl holds the OPTIONS it "
                + "asked). With --unsafe the request is sent (its body built from the link's parameters) and "
                + "its status and type are checked."
        case .typeMatches:
            "When a link declares a media type, the response must be served with it: type and subtype "
                + "compare case-insensitively and parameters are ignored except profile. The body must agree "
                + "with its type as well: +json parses as JSON, +xml is well-formed, images start with the "
                + "magic bytes of their format. Clients choose parsers by type, so a mismatch breaks them."
        case .bodySchema:
            "When a media type has a profile, a JSON Schema that says what its bodies look like, every "
                + "body served with that type must validate against it. Profiles are given with --profile "
                + "TYPE=FILE, in the stub set's apicheck.json, or discovered from the API itself: the "
                + "profile parameter of the Content-Type (RFC 6906), a Link header with rel=\"describedby\", "
                + "or a describedby or profile link in the body. The served type's profile applies, else the "
                + "profile of the type the link declared. Each failing keyword is a finding at the body's "
                + "JSON pointer; findings group by schema keyword and place in the API, so one wrong field "
                + "in every movie is one defect. Clients decode these fields, so a body that breaks its "
                + "profile breaks them. Fix the API, or the profile when the API is right."
        case .typeSyntax:
            "Declared and served media types must be syntactically valid type/subtype pairs with a "
                + "registered top-level type, and should use the registered name. vnd.example+json has no "
                + "top-level type (write application/vnd.example+json); image/jpg is not registered (write "
                + "image/jpeg). Lenient clients cope, strict ones reject the response."
        case .contentTypePresent:
            "A 2xx response that has a body must say what the body is. Without Content-Type, clients "
                + "guess (content sniffing), which is unreliable and a security risk. Add the header on the "
                + "server."
        case .selfConsistent:
            "A self link must point back to the resource that contains it, after normalisation (scheme "
                + "and host case, default port, trailing fragment). A self link naming another resource "
                + "usually means a copied representation or a wrong base URL, and clients that follow self "
                + "to refresh will load the wrong thing. Only a self the format declares is held to it (HAL "
                + "and Siren self, JSON:API's top-level links.self, a Link header, Atom, a link array): a "
                + "plain JSON url field often names the resource's canonical URL (GitHub's /user has the url "
                + "/users/octocat), an alias that is not a defect."
        case .duplicateRel:
            "One representation must not advertise the same rel twice with different targets or "
                + "attributes (unless the format makes the rel a list). Clients that pick the first or the "
                + "last occurrence then disagree about where the link goes."
        case .formatShape:
            "A representation must follow the hypermedia format it claims: HAL link objects with href, "
                + "_embedded as an object of resources, no null links; JSON:API resource objects with type "
                + "and id. Generic format clients rely on these shapes and fail on deviations, even when the "
                + "API's own client copes."
        case .templateValid:
            "A templated href must be a valid RFC 6570 URI template (balanced braces, known operators, "
                + "valid variable names and modifiers). An invalid template cannot be expanded by any "
                + "conforming client, so the link is unusable."
        case .crawlLimit:
            "A crawl is bounded so that any API, however large or hostile, ends: at most --max-links "
                + "links are read from one response, --max-body bytes of one body, --max-depth hops from the "
                + "root and --max-requests requests in all. When a limit drops work, the report says so with "
                + "a finding of this rule that names what was left out, how much, and the flag that raises "
                + "the limit; it is a warning, so --strict fails on it. Raise the limit, or narrow the crawl "
                + "(--sample N) when the API is meant to be that large."
        case .openAPIOperation:
            "With --openapi FILE, every answer the crawl receives is matched to an operation of the "
                + "document: the servers' base paths (server variables at their defaults), then the path "
                + "templates (a literal segment wins over a templated one), then the method. A link the "
                + "API advertises that reaches no documented operation means the document and the API "
                + "disagree about what exists: clients generated from the document cannot call it. "
                + "Document the operation, or stop advertising the link. Answers from other hosts the crawl "
                + "may follow (--allow-host) are checked only when a server of the document names their "
                + "host. The crawl's root is the exception: when the document leaves it out (Django REST "
                + "framework's router root), a note says so once and its links are followed. (Schemathesis "
                + "has no such check: it only calls what the document lists.)"
        case .openAPIStatus:
            "The status of each answer must be one of the operation's documented responses: the exact "
                + "code, its range (4XX) or default. An undocumented status is one clients generated from "
                + "the document do not handle. Document it, or answer a documented one. (Schemathesis: "
                + "status_code_conformance.)"
        case .openAPIContentType:
            "The served Content-Type must be one of the media types the matched response documents, "
                + "compared by type and subtype without parameters; */* and type/* ranges match too. A "
                + "response documented without content must have no body. (Schemathesis: "
                + "content_type_conformance.)"
        case .openAPIBody:
            "A JSON body must validate against the schema of the matched response and media type, with "
                + "the document's own dialect: OpenAPI 3.0's (nullable, readOnly/writeOnly for responses, "
                + "discriminator) for 3.0 documents, JSON Schema 2020-12 or the document's "
                + "jsonSchemaDialect for 3.1 and 3.2; $refs to components and to files beside the document "
                + "resolve. Each failing keyword is a finding at the body's JSON pointer, with the schema's "
                + "keyword location. When a media-type profile (body-schema) also applies to the body, a "
                + "place both report is reported once, here. A pattern that is not an ECMA-262 regular "
                + "expression (Python's dialect, which DRF writes into every URL field) is left unchecked, "
                + "with a warning at its place when the document loads. (Schemathesis: "
                + "response_schema_conformance.)"
        case .openAPIHeader:
            "Every header the matched response documents as required must be in the answer (names "
                + "compare case-insensitively; Content-Type is checked by openapi-content-type). "
                + "(Schemathesis: response_headers_conformance.)"
        case .driftStatus:
            "apicheck verify sends each stub's request to the live API and compares the status codes. "
                + "A different status, above all a different class (a 200 that became a 404), means tests "
                + "that pass against the stub no longer describe the API, and code tested only against the "
                + "stub will fail in production. Re-record the stub with apicheck verify --update when the "
                + "API changed on purpose, or fix the API."
        case .driftType:
            "The stub's Content-Type and the live one must agree by the rules type-matches uses: type and "
                + "subtype compare case-insensitively and parameters are ignored except profile, so a "
                + "different charset is not drift. A Content-Type on one side only is drift too. Clients "
                + "choose parsers by type, so code tested against the stub may not read the live body. "
                + "Re-record with apicheck verify --update, or fix the API."
        case .driftLinks:
            "The links of the stub's body and Link headers are compared with the live ones, rel by rel: a "
                + "rel that only one side advertises, or a rel whose method, declared type or templating "
                + "changed, is drift. Hrefs themselves are not compared, since ids and hosts legitimately "
                + "differ between a recording and the live API. Clients navigate by rel, so a missing or "
                + "changed rel breaks them. Re-record with apicheck verify --update, or fix the API."
        case .driftShape:
            "When both bodies are JSON, their shapes are compared: every field's JSON pointer and type "
                + "(object, array, string, number, boolean, null), array elements merged under *. A field "
                + "missing on one side, or whose type changed (including a field that became null), is "
                + "drift; with --compare-values leaf values are compared too, and --ignore skips pointers. "
                + "Clients decode these fields, so tests against an outdated stub hide the failure. "
                + "Re-record with apicheck verify --update, or fix the API."
        case .driftHeader:
            "Each header named with --compare-header must have the same value in the stub and the live "
                + "response, or be absent from both (names compare case-insensitively). Use it for headers "
                + "clients depend on, such as caching or API versions. Re-record with apicheck verify "
                + "--update, or fix the API."
        case .driftCoverage:
            "With --coverage, verify also crawls the live API from its root and groups the resources it "
                + "reaches by kind: the rel path from the root with indices stripped (root → orders[*] → "
                + "customer). A kind none of whose resources any stub answers (method, path and query; "
                + "headers and bodies aside) is a gap: tests against the stubs cannot reach it. Record it "
                + "(apicheck crawl --record), or write a stub for it."
        case .probeServerError:
            "apicheck probe sends generated requests to the write affordances an API advertises (HAL-FORMS "
                + "templates, Siren actions, Collection+JSON templates, JSON:API collections, links with a "
                + "method and parameters, OpenAPI request bodies) and to its templated reads. Whatever the "
                + "input, a server must answer it: 2xx when it accepts it, 4xx when it does not. A 5xx (or a "
                + "connection reset) is a bug behind the affordance: an unhandled integrity error, a list "
                + "where an object is expected, an unknown id that crashes a lookup. The finding carries the "
                + "smallest request that still fails the same way, and a curl command that replays it. "
                + "Validate the input and answer 4xx."
        case .probeResponseType:
            "An answer to a generated request must have the media type the affordance (or the OpenAPI "
                + "document) declares for it, and its body must agree with that type. A 2xx served as "
                + "text/html where the form promises application/hal+json, or a JSON body that does not "
                + "parse, breaks the client that submitted the form. Serve the declared type."
        case .probeAcceptsInvalid:
            "An affordance that advertises constraints (required fields, regex, min and max, lengths, "
                + "options) tells clients what the server will accept. A 2xx to a body that breaks one of "
                + "them means the server does not enforce what it advertises: invalid data is stored, or the "
                + "constraint is wrong. A warning: enforce the constraint (answer 400 or 422), or stop "
                + "advertising it."
        case .probeCreatedResolves:
            "A 201 Created names what it created, in its Location header or the body's self link: the "
                + "probe fetches it with GET and expects 2xx. A Location that answers 404 leaves clients "
                + "unable to reach what they just created. Where the API advertises DELETE on it, the probe "
                + "deletes it again and checks that it is gone (404 or 410)."
        }
    }

    /// A short illustration of a violation, as it would appear in a report.
    public var example: String {
        switch self {
        case .linkResolves:
            "GET https://api.example.com/movies/3/poster answered 404 Not Found (expected 2xx), reached by "
                + "root → library → movies[3] → poster."
        case .methodValid:
            "The link \"cancel\" declares method \"CANCEL\", which is not an HTTP method; or DELETE "
                + "https://api.example.com/orders/7 has no stub."
        case .typeMatches:
            "The link \"poster\" declares image/jpeg but the response is served as text/html."
        case .bodySchema:
            "/year: expected an integer, found a string (the profile of application/vnd.acmeflix.api.movie+json, "
                + "schemas/movie.json#/properties/year/type), in every movie reached by root → library → movies[*] → self."
        case .typeSyntax:
            "The link \"poster\" declares image/jpg (expected image/jpeg)."
        case .contentTypePresent:
            "GET https://api.example.com/movies answered 200 with 512 bytes and no Content-Type."
        case .selfConsistent:
            "https://api.example.com/movies/3 has a self link to https://api.example.com/movies/4."
        case .duplicateRel:
            "https://api.example.com/ has two \"search\" links with different hrefs."
        case .formatShape:
            "/_links/next is null in a HAL document (expected a link object or an array of them)."
        case .templateValid:
            "The href \"/movies{?page\" is not a valid URI template (unclosed expression)."
        case .crawlLimit:
            "12000 of the 22000 links in the response were not extracted (--max-links 10000): raise --max-links."
        case .openAPIOperation:
            "GET https://api.example.com/movies/3/poster: no operation of the document has the path /movies/3/poster."
        case .openAPIStatus:
            "GET /movies/{id} answered 500; the document lists 200, 404."
        case .openAPIContentType:
            "GET /movies/{id} 200 served text/html; the document lists application/json."
        case .openAPIBody:
            "/year: expected an integer, found a string (GET /movies/{id} 200 application/json, #/components/schemas/Movie/properties/year/type)."
        case .openAPIHeader:
            "GET /movies 200 lacks the required header X-Total-Count."
        case .driftStatus:
            "GET https://api.example.com/movies/3: the stub answers 200, the live API 404 (client error)."
        case .driftType:
            "GET https://api.example.com/: the stub answers application/hal+json, the live API application/json."
        case .driftLinks:
            "GET https://api.example.com/: rel 'next' is advertised by the stub but not by the live API."
        case .driftShape:
            "GET https://api.example.com/movies/3: /price was number, is now string."
        case .driftHeader:
            "GET https://api.example.com/: the header Cache-Control is \"max-age=60\" in the stub, \"no-store\" live."
        case .driftCoverage:
            "GET https://api.example.com/orders/7/invoice: no stub answers root → orders[*] → invoice (12 resources live)."
        case .probeServerError:
            "POST https://api.example.com/authors (HAL-FORMS default) answered 500 to name: a value that already exists."
        case .probeResponseType:
            "POST https://api.example.com/reviews answered 201 as text/html; the affordance declares application/vnd.api+json."
        case .probeAcceptsInvalid:
            "GET https://api.example.com/books?size=-1 answered 200; the search template advertises size min 1."
        case .probeCreatedResolves:
            "POST https://api.example.com/reviews answered 201 with Location /reviews/9, which answers 404."
        }
    }
}
