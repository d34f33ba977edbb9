import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckJSON
import APICheckModel
import Foundation

extension ProbeRunner {
    /// A `probe-*` finding placed where the affordance was advertised.
    func finding(
        _ rule: RuleID, _ affordance: Affordance, url: String, expected: String, actual: String, message: String, probe: ProbeRequest
    ) -> Finding {
        var redacted = probe
        redacted.body = probe.body.map(options.redaction.text)
        var finding = Finding(
            rule: rule, method: affordance.kind == .queryForm ? "GET" : affordance.method, url: options.redaction.url(url), rel: affordance.rel,
            declaredType: affordance.responseType, sourcePointer: affordance.sourcePointer, format: affordance.format,
            relPath: affordance.relPath, referrer: options.redaction.url(affordance.referrer), expected: expected, actual: actual,
            message: options.redaction.text(message))
        finding.probe = redacted
        return finding
    }

    /// Shrinks a failing case to the smallest body that still fails the same way (`stillFails`
    /// on the answer, `keeps` on the body: an invalid body must stay invalid), then reports it
    /// with the request that reproduces it.
    func report(
        _ rule: RuleID, _ probeCase: ProbeCase, _ request: PlannedRequest, _ affordance: Affordance, actual: String, _ session: ProbeSession,
        stillFails: (Exchange) -> Bool, keeps: (JSONValue) -> Bool = { _ in true }
    ) async {
        var smallest = probeCase
        var lastActual = actual
        if let body = probeCase.body, options.shrinkAttempts > 0 {
            let budget = min(options.shrinkAttempts, max(0, options.maximumRequests - session.sent))
            let shrunk = await ProbeShrinker.shrink(body, maximumAttempts: budget) { candidate in
                guard candidate != body, keeps(candidate), !isInterrupted, session.sent < options.maximumRequests else { return false }
                var attempt = probeCase
                attempt.body = candidate
                let sent = await sendCase(attempt, request, affordance, session)
                guard stillFails(sent.exchange) else { return false }
                lastActual = Self.actual(of: sent.exchange) ?? lastActual
                return true
            }
            smallest.body = shrunk.body
        }
        // Two cases that shrink to the same request are one bug found twice (a valid body that
        // crashes at `copies: 0`, and `copies: min (0)`): reported once.
        guard session.firstShrunk(rule, affordance, smallest.body) else { return }
        let body = ProbeBody(smallest, for: affordance)
        let url = affordance.method == "GET" ? QueryForm.url(request.url, with: smallest.body) : request.url
        let verb = rule == .probeAcceptsInvalid ? "accepted (\(lastActual)) a body that breaks \(probeCase.breaks ?? "its constraints"):" : "answered \(lastActual) to"
        session.findings.append(finding(
            rule, affordance, url: url,
            expected: rule == .probeAcceptsInvalid ? "a 4xx: the body breaks \(probeCase.breaks ?? "a constraint")" : "a 4xx (or 2xx), never a 5xx",
            actual: lastActual, message: "\(affordance.name) \(verb) \(probeCase.label)",
            probe: ProbeRequest(label: probeCase.label, field: probeCase.field, contentType: body.contentType, body: affordance.method == "GET" ? nil : body.text)))
    }

    static func actual(of exchange: Exchange) -> String? {
        switch exchange {
        case .response(let response): "\(response.status)"
        case .failed(let error): error.description
        case .notSent: nil
        }
    }

    /// Why a 2xx's type is not what the affordance declares, or its body not what its type says.
    func typeProblem(_ response: FetchedResponse, declared: String?) -> (expected: String, actual: String, message: String)? {
        guard !response.body.isEmpty, !response.isTruncated else { return nil }
        let served = response.headers.value(named: "Content-Type")
        if let declared, let served, ContentTypeHeader.essence(of: declared) != ContentTypeHeader.essence(of: served) {
            return (ContentTypeHeader.essence(of: declared), ContentTypeHeader.essence(of: served), "as \(ContentTypeHeader.essence(of: served)); the affordance declares \(ContentTypeHeader.essence(of: declared))")
        }
        guard let served, let type = try? MediaType(parsing: served) else { return nil }
        if case .disagrees(let reason) = BodySniffer().check([UInt8](response.body), against: type) {
            return ("a body that is \(type.essence)", reason, "with a \(type.essence) body that is not one: \(reason)")
        }
        return nil
    }

    /// Findings for planned requests `--max-requests` left out.
    func limitFindings(_ session: ProbeSession) -> [Finding] {
        guard session.notSent > 0 else { return [] }
        return [Finding(
            rule: .crawlLimit, url: options.redaction.url(options.root.absoluteString), expected: "--max-requests \(options.maximumRequests)",
            actual: "\(session.notSent) probe requests not sent",
            message: "\(session.notSent) planned probe requests were not sent (--max-requests \(options.maximumRequests)): raise --max-requests, or lower --probe-budget")]
    }
}

/// A `GET` form's fields as its URL's query.
enum QueryForm {
    static func url(_ target: String, with body: JSONValue?) -> String {
        guard case .object(let members)? = body, !members.isEmpty else { return target }
        let query = ProbeBody.encode(.object(members), as: "application/x-www-form-urlencoded")
        let base = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        return base + (base.contains("?") ? "&" : "?") + query
    }
}
