import APICheckHypermedia

/// One `GET` of a templated-read probe.
public struct ReadProbeRequest: Sendable, Hashable {
    /// The URL to fetch, as URI text to send as written.
    public var url: String
    /// The variable that holds the edge value; every other variable holds a value seen in a
    /// real URL.
    public var variable: String
    /// The edge value and what it tries.
    public var value: ReadProbeValue
    /// For people: `id: one past the largest id (7)`.
    public var label: String { "\(variable): \(value.label)" }

    public init(url: String, variable: String, value: ReadProbeValue) {
        self.url = url
        self.variable = variable
        self.value = value
    }
}

/// Why a template cannot be probed.
public struct ReadProbePlanError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case invalidTemplate(String)
        case notAbsolute
        case hostNotLiteral
    }

    private var code: Code
    /// The template concerned.
    public var template: String

    /// The template does not parse as RFC 6570.
    public static func invalidTemplate(_ template: String, _ reason: String) -> Self { Self(code: .invalidTemplate(reason), template: template) }
    /// The template has no `scheme://authority` of its own.
    public static func notAbsolute(_ template: String) -> Self { Self(code: .notAbsolute, template: template) }
    /// A variable sits in the scheme or authority, so a value could change the host.
    public static func hostNotLiteral(_ template: String) -> Self { Self(code: .hostNotLiteral, template: template) }

    public var description: String {
        switch code {
        case .invalidTemplate(let reason): "\(template): not a URI template: \(reason)"
        case .notAbsolute: "\(template): not an absolute URI template (no scheme://host)"
        case .hostNotLiteral: "\(template): a variable could change the host, so it is not probed"
        }
    }
}

/// The `GET`s that probe one URI template: each variable in turn takes the edge values of
/// ``ReadProbeValues`` while the others keep a value seen in a real URL, so when the server
/// answers 5xx exactly one value is to blame.
///
/// Values are substituted as written (they are URI text: pre-encoded edge values and values
/// taken from fetched URLs). RFC 6570 simple expansion would percent-encode them again and turn
/// `..%2F` into `..%252F`, so the template is expanded with placeholders of unreserved
/// characters, which every operator passes through unchanged, and the placeholders are then
/// replaced. A variable with a prefix modifier (`{id:3}`) is expanded by ``URITemplate`` itself,
/// encoded and cut as the template asks. The host is the template's literal one; a URL whose
/// authority differs is never produced.
public struct ReadProbePlan: Sendable, Hashable {
    /// The template probed.
    public var template: String
    /// The requests, at most the budget, interleaved so every variable gets its strongest values
    /// first: variable 1's first value, variable 2's first value, then the second values, ….
    public var requests: [ReadProbeRequest]
    /// Path variables with no observed value: a URL needs them, so only the requests varying
    /// them could be made (and only when they are the sole such variable).
    public var unfilledVariables: [String]

    /// Plans the probes for `template` (absolute RFC 6570) with the values seen for its variables.
    /// - Parameter budget: requests at most.
    public init(template: String, observedValues: [String: [String]], budget: Int) throws(ReadProbePlanError) {
        let parsed: URITemplate
        do throws(URITemplateError) {
            parsed = try URITemplate(template)
        } catch {
            throw .invalidTemplate(template, error.description)
        }
        let authority = try Self.literalAuthority(of: parsed)
        self.template = template

        var names: [String] = []
        for name in parsed.variableNames where !names.contains(name) { names.append(name) }
        let queryOnly = Set(parsed.variables.filter(\.isQueryForm).map(\.name))
            .subtracting(parsed.variables.filter { !$0.isQueryForm }.map(\.name))
        unfilledVariables = names.filter { !queryOnly.contains($0) && (observedValues[$0] ?? []).isEmpty }

        let fixed = names.reduce(into: [String: String]()) { fixed, name in
            if let value = observedValues[name]?.first { fixed[name] = value }
        }
        let budget = max(0, budget)
        let candidates = names.map { name in
            ReadProbeValues.values(for: name, observed: observedValues[name] ?? [], limit: budget)
        }
        var requests: [ReadProbeRequest] = []
        var urls = Set<String>()
        let deepest = candidates.map(\.count).max() ?? 0
        rounds: for rank in 0..<deepest {
            for (index, name) in names.enumerated() where rank < candidates[index].count {
                guard requests.count < budget else { break rounds }
                guard unfilledVariables.allSatisfy({ $0 == name }) else { continue }
                var values = fixed
                values[name] = candidates[index][rank].value
                guard let url = Self.expand(parsed, rawValues: values), Self.authority(of: url) == authority,
                    urls.insert(url).inserted
                else { continue }
                requests.append(ReadProbeRequest(url: url, variable: name, value: candidates[index][rank]))
            }
        }
        self.requests = requests
    }

    /// Plans the probes for an inferred template with the values it was inferred from.
    public init(_ inferred: InferredTemplate, budget: Int) throws(ReadProbePlanError) {
        try self.init(template: inferred.template, observedValues: inferred.observedValues, budget: budget)
    }

    /// Expands with values substituted as written; `nil` if expansion fails (too long).
    static func expand(_ template: URITemplate, rawValues: [String: String]) -> String? {
        let source = template.source
        var placeholders: [(token: String, value: String)] = []
        var values: [String: URITemplate.Value] = [:]
        let prefixed = Set(template.variables.filter { $0.prefix != nil }.map(\.name))
        for (index, name) in rawValues.keys.sorted().enumerated() {
            let raw = rawValues[name] ?? ""
            if prefixed.contains(name) || raw.isEmpty {
                // Empty strings expand specially for named operators (`{;x}` → `;x`); prefixes cut.
                values[name] = .string(raw)
                continue
            }
            var token = "~apicheck-\(index)~"
            while source.contains(token) { token = "~" + token + "~" }
            placeholders.append((token, raw))
            values[name] = .string(token)
        }
        guard var url = try? template.expand(values) else { return nil }
        for (token, raw) in placeholders { url = url.replacing(token, with: raw) }
        return url
    }

    /// The template's `authority`, which must be literal text ended by `/`, `?` or `#` (in the
    /// literal or as the next expression's operator), or the end of the template.
    private static func literalAuthority(of template: URITemplate) throws(ReadProbePlanError) -> String {
        guard case .literal(let head)? = template.components.first, let schemeEnd = head.firstRange(of: "://") else {
            throw .notAbsolute(template.source)
        }
        let afterScheme = head[schemeEnd.upperBound...]
        if afterScheme.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            return authority(of: head) ?? ""
        }
        if template.components.count > 1 {
            guard case .expression(let next) = template.components[1], [.pathSegment, .query, .fragment].contains(next.operator) else {
                throw .hostNotLiteral(template.source)
            }
        }
        guard !afterScheme.isEmpty else { throw .notAbsolute(template.source) }
        return afterScheme.lowercased()
    }

    /// The lower-cased authority of an absolute URL, `nil` without `scheme://`.
    static func authority(of url: String) -> String? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return rest[..<end].lowercased()
    }
}
