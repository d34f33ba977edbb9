import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckSpool
import Foundation

/// A link's target, worked out once per link for both its check and the crawl's queue.
struct ResolvedTarget {
    let resolution: Link.Resolution
    /// The resolved URL, or the href when it does not resolve.
    let target: String
    let normalisedKey: String
    let key: URLKey
    /// The resolved URL, parsed; `nil` when it does not resolve or parse.
    let url: URL?

    init(_ link: Link, variables: [String: URITemplate.Value]) {
        resolution = link.resolve(with: variables)
        if case .url(let resolved) = resolution {
            target = resolved
            url = URL(string: resolved)
        } else {
            target = link.href
            url = nil
        }
        normalisedKey = URLResolution.normalisedKey(target)
        key = URLKey(normalised: normalisedKey)
    }
}

/// The rules of FORMATS §6, in two halves so that a crawl never holds all its links: what a link
/// alone decides (``discover(_:_:relPath:referrer:discoveryIndex:methodSlot:)``, when it is
/// found) and what its target's answer decides (``complete(_:index:methodChecks:)``, at the end).
/// Pure functions of their input, so they are tested without any fetching.
struct ContractRules {
    let options: CrawlOptions

    // MARK: Links

    /// The link's check as far as the link alone decides it, and the findings it already has;
    /// `nil` when its target belongs to another shard. `methodSlot` gives the method check for an
    /// unsafe link in scope (the crawl sends or probes those once all links are known).
    func discover(
        _ link: Link, _ resolved: ResolvedTarget, relPath: RelPath, referrer: String, discoveryIndex: Int, methodSlot: (Link, URL, String) -> Int
    ) -> (PendingCheck, [Finding])? {
        let (resolution, target, targetKey) = (resolved.resolution, resolved.target, resolved.normalisedKey)
        guard options.shard.map({ $0.contains(url: targetKey) }) ?? true else { return nil }

        // Findings copy the link's identity from `base`; `check` collects the outcome.
        let base = CheckedLink(
            method: link.method, url: target, rel: link.compactRel ?? link.rel, relPath: relPath, referrer: referrer,
            sourcePointer: link.source.description, outcome: .passed, discoveryIndex: discoveryIndex
        )
        var check = base
        var findings: [Finding] = []
        var awaiting = PendingCheck.Awaiting.nothing
        func report(_ rule: RuleID, expected: String? = nil, actual: String? = nil, _ message: String) {
            var finding = base.finding(rule, expected: expected, actual: actual, message: message)
            finding.declaredType = link.type
            finding.format = link.format.displayName
            findings.append(finding)
        }
        func pending() -> (PendingCheck, [Finding]) {
            if !findings.isEmpty, case .passed = check.outcome { check.outcome = .failed }
            // Its path's labels were redacted when the crawl made them (CrawlState.consume).
            let redacted = options.redaction.check(check, relPathRedacted: true)
            return (
                PendingCheck(check: redacted, hasFindings: !findings.isEmpty, declaredType: link.type, format: link.format.displayName, awaiting: awaiting),
                findings
            )
        }

        if let declared = link.type {
            let problems = MediaType.problems(in: declared)
            if let first = problems.first {
                report(.typeSyntax, expected: first.suggestion, actual: declared, Self.typeSyntaxMessage("declared", declared, problems))
            }
        }

        let url: URL
        switch resolution {
        case .invalidTemplate(let error):
            report(.templateValid, actual: link.href, "the templated href is not valid RFC 6570: \(error)")
            check.outcome = .notChecked(reason: "invalid template")
            return pending()
        case .needsVariables(let names):
            check.outcome = .notChecked(reason: "needs variables: \(names.joined(separator: ", ")) (pass --var \(names[0])=…)")
            return pending()
        case .unresolvable(let reason):
            report(.linkResolves, expected: "a URL", actual: link.href, "the href is not a URL: \(reason)")
            return pending()
        case .url:
            guard let parsed = resolved.url else {
                report(.linkResolves, expected: "a URL", actual: link.href, "the href does not resolve to a URL")
                return pending()
            }
            url = parsed
        }
        guard options.isInScope(url) else {
            check.outcome = .skipped(reason: "other origin (allow it with --allow-host \(url.host ?? ""))")
            return pending()
        }
        if let problem = HTTPMethodToken.problem(with: link.method, allowedVendorTokens: options.allowedMethodTokens) {
            report(.methodValid, expected: "an HTTP method", actual: link.method, problem)
            return pending()
        }
        switch link.method {
        case "GET", "HEAD":
            awaiting = .target(resolved.key, credentialed: options.hasCredentials(for: url))
        case _ where HTTPMethodToken.safe.contains(link.method) || !HTTPMethodToken.standard.contains(link.method):
            check.outcome = .skipped(reason: "\(link.method) links are not requested")
        default:
            awaiting = .method(slot: methodSlot(link, url, targetKey), path: url.path)
        }
        return pending()
    }

    /// The check decided by its target's answer (or its method check), and its findings.
    func complete(_ pending: PendingCheck, index: ResourceIndex, methodChecks: [MethodCheck?]) -> (CheckedLink, [Finding]) {
        var check = pending.check
        var findings: [Finding] = []
        func report(_ rule: RuleID, _ expected: String?, _ actual: String?, _ served: String?, _ message: String) {
            var finding = pending.check.finding(rule, expected: expected, actual: actual, message: message)
            finding.declaredType = pending.declaredType
            finding.servedType = served
            finding.format = pending.format
            findings.append(finding)
        }
        switch pending.awaiting {
        case .nothing:
            break
        case .target(let key, let credentialed):
            completeFetched(key, credentialed: credentialed, declared: pending.declaredType, index: index, check: &check, report: report)
        case .method(let slot, let path):
            completeUnsafe(methodChecks.indices.contains(slot) ? methodChecks[slot] : nil, path: path, declared: pending.declaredType, check: &check, report: report)
        }
        if !findings.isEmpty || pending.hasFindings, case .passed = check.outcome { check.outcome = .failed }
        // The rest of the check was redacted when it was found; only a reason is new.
        switch check.outcome {
        case .notChecked(let reason): check.outcome = .notChecked(reason: options.redaction.text(reason))
        case .skipped(let reason): check.outcome = .skipped(reason: options.redaction.text(reason))
        case .passed, .failed: break
        }
        return (check, findings)
    }

    private func completeFetched(
        _ key: URLKey, credentialed: Bool, declared: String?, index: ResourceIndex, check: inout CheckedLink,
        report: (RuleID, String?, String?, String?, String) -> Void
    ) {
        guard let outcome = index.outcome(of: key) else {
            check.outcome = .skipped(reason: "deeper than --max-depth \(options.maximumDepth)")
            return
        }
        switch outcome {
        case .skipped(let reason, let duration):
            check.duration = duration
            check.outcome = .skipped(reason: reason)
        case .failed(let reason, let duration):
            check.duration = duration
            report(.linkResolves, "a 2xx response", reason, nil, "the link does not resolve: \(reason)")
        case .timedOut(let reason, let duration):
            // Not a broken link: the crawl could not tell (the report is incomplete, exit 2).
            check.duration = duration
            check.outcome = .notChecked(reason: reason)
        case .response(let status, let contentType, let challenge, let hasFindings, let duration):
            check.duration = duration
            check.statusCode = status
            if status == 401 || status == 403, let challenge {
                // Without credentials a challenge is not a broken link; with them it is.
                guard credentialed else {
                    check.outcome = .notChecked(reason: "needs credentials: \(status) with WWW-Authenticate: \(challenge) (pass --header or --header-from-env)")
                    return
                }
                report(.linkResolves, "a 2xx response", "\(status)", contentType, "the link answers \(status) with the credentials given (WWW-Authenticate: \(challenge))")
                return
            }
            guard (200..<300).contains(status) else {
                report(.linkResolves, "a 2xx response", "\(status)", contentType, "the link answers \(status)")
                return
            }
            if let declared, let served = contentType, let mismatch = Self.typeMismatch(declared: declared, served: served) {
                report(.typeMatches, declared, served, served, Self.typeMismatchMessage(declared: declared, served: served, mismatch))
            }
            // One outcome per check: never `passed` while a finding about its answer stands.
            if hasFindings, case .passed = check.outcome { check.outcome = .failed }
        }
    }

    private func completeUnsafe(
        _ methodCheck: MethodCheck?, path: String, declared: String?, check: inout CheckedLink,
        report: (RuleID, String?, String?, String?, String) -> Void
    ) {
        let method = check.method
        let url = check.url
        switch methodCheck {
        case nil:
            check.outcome = .skipped(reason: "not checked")
        case .stubbed:
            break
        case .noStub(let explanation):
            let explained = explanation.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            report(.methodValid, "a stub answering \(method) \(path)", "none", nil, explained)
        case .allowHeader(let allowed, let allows):
            if !allows {
                report(.methodValid, "Allow to list \(method)", "Allow: \(allowed.joined(separator: ", "))", nil, "the server does not allow \(method) on \(url) (Allow: \(allowed.joined(separator: ", ")))")
            }
        case .unverified(let reason):
            check.outcome = .notChecked(reason: "unverified: \(reason); --unsafe sends it")
        case .needsVariables(let names):
            check.outcome = .notChecked(reason: "needs variables: \(names.joined(separator: ", ")) (pass --var \(names[0])=…)")
        case .sent(let status, let contentType):
            check.statusCode = status
            if !(200..<300).contains(status) {
                report(.methodValid, "a 2xx response", "\(status)", contentType, "\(method) \(url) answers \(status)")
            } else if let declared, let served = contentType, let mismatch = Self.typeMismatch(declared: declared, served: served) {
                report(.typeMatches, declared, served, served, Self.typeMismatchMessage(declared: declared, served: served, mismatch))
            }
        case .failed(let reason):
            report(.methodValid, "a response", reason, nil, "\(method) \(url) failed: \(reason)")
        case .skipped(let reason):
            check.outcome = .skipped(reason: reason)
        }
    }

    /// `the declared type 'vnd.x+json' lacks a top-level type: write 'application/vnd.x+json'`:
    /// the type once, then what is wrong with it and the fix.
    static func typeSyntaxMessage(_ side: String, _ type: String, _ problems: [MediaTypeProblem]) -> String {
        let message = problems.map(\.message).joined(separator: "; ")
        return message.hasPrefix("'\(type)'") ? "the \(side) type \(message)" : "the \(side) type '\(type)': \(message)"
    }

    /// `declared X, served Y`, and the reason only when the two types do not already say it (a
    /// profile).
    static func typeMismatchMessage(declared: String, served: String, _ mismatch: String) -> String {
        "declared \(declared), served \(served)" + (mismatch.contains("profile") ? ": \(mismatch)" : "")
    }

    /// Why a served type does not satisfy a declared one. A declared type that does not parse
    /// but has an obvious repair (`vnd.x+json` → `application/vnd.x+json`) is compared as repaired
    /// (its syntax is `type-syntax`'s business); one without a repair is not compared.
    static func typeMismatch(declared: String, served: String) -> String? {
        let declaredType = (try? MediaType(parsing: declared))
            ?? MediaType.problems(in: declared).lazy.compactMap(\.suggestion).compactMap { try? MediaType(parsing: $0) }.first
        guard let declaredType, let servedType = try? MediaType(parsing: served) else { return nil }
        return declaredType.mismatch(with: servedType)
    }

    // MARK: Resources

    /// The findings about a fetched resource itself (its type, its own links), found as it
    /// arrives; none for a resource of another shard.
    func evaluateResource(_ record: ResourceRecord, relPath: RelPath) -> [Finding] {
        guard options.shard.map({ $0.contains(url: record.entry.normalisedKey) }) ?? true else { return [] }
        var findings: [Finding] = []
        let url = record.finalURL?.absoluteString ?? record.entry.url
        // A finding about the response itself is found through the link that led here, and names
        // that link's rel; one at a pointer inside it (self, duplicates, shape) was found on the
        // resource itself and names the rel at that pointer, if any (a shape note has none: the
        // last rel-path label, such as `products[1].self`, is not a link relation).
        func report(_ rule: RuleID, severity: Severity? = nil, pointer: String? = nil, format: String? = nil, rel: String? = nil, expected: String? = nil, actual: String? = nil, _ message: String) {
            findings.append(Finding(
                rule: rule, severity: severity, method: "GET", url: url, rel: pointer == nil ? record.entry.rel : rel, servedType: record.contentType,
                sourcePointer: pointer, format: format, relPath: relPath, referrer: pointer == nil ? record.entry.referrer : url,
                expected: expected, actual: actual, message: message
            ))
        }
        guard record.isSuccess else { return findings }
        if let contentType = record.contentType {
            let problems = MediaType.problems(in: contentType)
            if let first = problems.first {
                report(.typeSyntax, expected: first.suggestion, actual: contentType, Self.typeSyntaxMessage("served", contentType, problems))
            }
            if case .disagrees(let reason)? = record.bodyVerdict {
                report(.typeMatches, expected: contentType, actual: reason, "the body is not \(contentType): \(reason)")
            }
        } else if record.bodyByteCount > 0 {
            report(.contentTypePresent, expected: "a Content-Type header", actual: "none", "a \(record.status ?? 200) with a \(record.bodyByteCount)-byte body has no Content-Type")
        }
        if record.bodyWasTruncated {
            report(.crawlLimit, expected: "a body of at most \(options.maximumBodyBytes) bytes", actual: "more",
                "the body is larger than --max-body (\(options.maximumBodyBytes) bytes were read): its links and its type were not checked; raise --max-body")
        }
        for note in record.extraction.notes where note.kind == .limitReached && note.severity != .note {
            report(.crawlLimit, pointer: note.source.description, format: note.format?.displayName, note.message)
        }

        let ownLinks = record.extraction.links.filter { !$0.isNested }
        let fetchedKeys: Set<String> = [record.entry.normalisedKey, URLResolution.normalisedKey(url)]
        // Only a self the format declares (HAL and Siren `self`, JSON:API's top-level `links.self`,
        // a Link header, Atom, a link array's `"rel": "self"`) names the resource itself. A plain
        // JSON `url` field is the API's name for a resource, often its canonical one (GitHub's
        // `/user` has the `url` `/users/octocat`): an alias, not a wrong self.
        for link in ownLinks where link.rel == "self" && link.format != .plainJSON {
            guard case .url(let target) = link.resolve(with: options.variables) else { continue }
            if !fetchedKeys.contains(URLResolution.normalisedKey(target)) {
                report(.selfConsistent, pointer: link.source.description, format: link.format.displayName, rel: "self", expected: url, actual: target, "the self link names \(target), not the resource fetched (\(url))")
            }
        }
        for (rel, links) in Self.duplicatedRels(ownLinks) {
            let described = links.map { "\($0.href)\($0.type.map { " (\($0))" } ?? "")" }.joined(separator: ", ")
            // Named as written (`shop:category`), as checks name links; grouped by the expanded rel.
            let written = links.first?.compactRel ?? rel
            report(.duplicateRel, pointer: links.last?.source.description, format: links.last?.format.displayName, rel: written, actual: described, "the rel \(written) appears \(links.count) times with different targets or attributes: \(described)")
        }
        for note in record.extraction.notes where note.kind == .formatShape {
            report(.formatShape, severity: note.severity == .error ? .error : .warning, pointer: note.source.description, format: note.format?.displayName, note.message)
        }
        return findings
    }

    /// Rels declared more than once in one place with different targets or attributes. Several
    /// links in one declaration (a HAL array, Siren sub-entities, a Link header with several rels)
    /// are not duplicates.
    static func duplicatedRels(_ links: [Link]) -> [(String, [Link])] {
        // Grouped in first-appearance order; a page's few links by a scan, a long list by hash.
        var groups: [(rel: String, links: [Link])] = []
        var slots: [String: Int] = [:]
        for link in links {
            let slot: Int?
            if links.count <= 16 {
                slot = groups.firstIndex { $0.rel == link.rel }
            } else {
                slot = slots[link.rel]
            }
            if let slot {
                groups[slot].links.append(link)
            } else {
                if links.count > 16 { slots[link.rel] = groups.count }
                groups.append((link.rel, [link]))
            }
        }
        return groups.compactMap { rel, group in
            guard group.count > 1 else { return nil }
            let first = group[0]
            let firstDeclaration = declaration(first)
            // One declaration (a HAL array, say) lists its links, however many: not duplicates.
            let oneDeclaration = group.dropFirst().allSatisfy { declaration($0) == firstDeclaration }
            guard !oneDeclaration || group.allSatisfy({ !isArrayElement($0) }) else { return nil }
            let differ = group.dropFirst().contains { link in
                link.href != first.href || (link.type ?? "") != (first.type ?? "") || link.method != first.method || (link.title ?? "") != (first.title ?? "")
                    || (link.name ?? "") != (first.name ?? "") || (link.profile ?? "") != (first.profile ?? "")
            }
            return differ ? (rel, group) : nil
        }
    }

    /// Where a link was declared: a HAL array's elements share their key's declaration, as do a
    /// plain-JSON list of URLs' (`"books": ["…/1/", "…/2/"]`), and a Siren entity's embedded links
    /// share its `entities` array (a collection's members, as the elements of a HAL array are).
    private static func declaration(_ link: Link) -> String {
        guard isArrayElement(link), link.format == .hal || link.format == .plainJSON || isSirenSubEntity(link) else { return link.source.description }
        return String(link.source.path[..<(link.source.path.lastIndex(of: "/") ?? link.source.path.endIndex)])
    }

    /// An embedded-link sub-entity: written at `…/entities/<n>` (Siren's own `links` are not).
    private static func isSirenSubEntity(_ link: Link) -> Bool {
        guard link.format == .sirenLink else { return false }
        let tokens = link.source.path.split(separator: "/")
        return tokens.count >= 2 && tokens[tokens.count - 2] == "entities"
    }

    private static func isArrayElement(_ link: Link) -> Bool {
        // The last non-empty step of the path, read in place.
        let path = Substring(link.source.path)
        var end = path.endIndex
        while end > path.startIndex, path[path.index(before: end)] == "/" { end = path.index(before: end) }
        let trimmed = path[..<end]
        let last = trimmed[(trimmed.lastIndex(of: "/").map(trimmed.index(after:)) ?? trimmed.startIndex)...]
        return !last.isEmpty && last.allSatisfy(\.isNumber)
    }
}
