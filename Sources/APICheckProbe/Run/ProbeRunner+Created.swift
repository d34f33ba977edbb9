import APICheckCrawler
import APICheckFindings
import APICheckHypermedia
import APICheckModel
import Foundation

extension ProbeRunner {
    /// A 201 names what it created (`Location`, else the body's `self`): it must answer `GET`.
    /// Whether the API advertises `DELETE` on it decides whether the probe deletes it at the end.
    func checkCreated(
        _ response: FetchedResponse, requestURL: String, _ affordance: Affordance, _ probeCase: ProbeCase, _ body: ProbeBody, _ session: ProbeSession
    ) async {
        guard let created = createdURL(response, requestURL: requestURL) else { return }
        if !session.created.contains(where: { $0.url == created }) { session.created.append((created, nil)) }
        guard let index = session.created.firstIndex(where: { $0.url == created }), session.created[index].deletable == nil else { return }
        let exchange = await send("GET", created, body: nil, session)
        // Another host (or a URL our client cannot send): not checked, not a finding.
        if case .notSent = Verdict.ofAnswer(exchange) {
            session.created[index].deletable = false
            return
        }
        guard case .response(let answer) = exchange, (200..<300).contains(answer.status) else {
            session.created[index].deletable = false
            guard session.firstFailure(.probeCreatedResolves, affordance, nil) else { return }
            let actual = Self.actual(of: exchange) ?? "not fetched (another host)"
            session.findings.append(finding(
                .probeCreatedResolves, affordance, url: requestURL, expected: "GET \(options.redaction.url(created)) answers 2xx", actual: actual,
                message: "\(affordance.name) answered 201 naming \(options.redaction.url(created)), which answers \(actual) to GET",
                probe: ProbeRequest(label: probeCase.label, field: probeCase.field, contentType: body.contentType, body: body.text)))
            return
        }
        session.created[index].deletable = session.collector.advertisesDelete(on: created) || advertisesDelete(answer, on: created)
    }

    /// The `Location` of a 201, resolved; else the `self` link of its body.
    func createdURL(_ response: FetchedResponse, requestURL: String) -> String? {
        if let location = response.headers.value(named: "Location") { return URLResolution.resolve(location, against: requestURL) }
        let links = LinkExtractor().extract(url: requestURL, headers: response.headers, body: [UInt8](response.body)).links
        return links.first { $0.rel == "self" && !$0.isNested }?.url
    }

    /// Whether a representation offers `DELETE` on itself (a link, a Siren action, a HAL-FORMS
    /// template whose target defaults to its self).
    func advertisesDelete(_ response: FetchedResponse, on url: String) -> Bool {
        let links = LinkExtractor().extract(url: url, headers: response.headers, body: [UInt8](response.body)).links
        let key = URLResolution.normalisedKey(url)
        return links.contains { $0.method.uppercased() == "DELETE" && $0.url.map(URLResolution.normalisedKey) == key }
    }

    /// Deletes what the probe created where `DELETE` is advertised, and checks it is gone (404 or
    /// 410); runs after an interruption too, and past `--max-requests` (it only removes).
    func cleanUp(_ session: ProbeSession) async {
        // What shrinking created was not fetched: it is deletable where its kind is.
        let deletableKinds = Set(session.created.filter { $0.deletable == true }.map { TargetShape.of($0.url) })
        for index in session.created.indices where session.created[index].deletable == nil {
            let url = session.created[index].url
            session.created[index].deletable = deletableKinds.contains(TargetShape.of(url)) || session.collector.advertisesDelete(on: url)
        }
        var checkedKinds: Set<String> = []
        for (index, created) in session.created.enumerated() where created.deletable == true {
            let deletion = await send("DELETE", created.url, body: nil, session)
            guard case .response(let answer) = deletion, (200..<300).contains(answer.status) else {
                session.created[index].deletable = false
                continue
            }
            session.deleted += 1
            // 202: the deletion happens later, so it may well be there still.
            guard answer.status != 202 else { continue }
            // Gone? Asked once per kind of resource: the others are deleted the same way.
            guard checkedKinds.insert(TargetShape.of(created.url)).inserted else { continue }
            let after = await send("GET", created.url, body: nil, session)
            guard case .response(let check) = after, check.status != 404, check.status != 410 else { continue }
            let affordance = Affordance(
                kind: .write, method: "DELETE", target: created.url, rel: "delete", format: "clean-up", relPath: [], sourcePointer: nil,
                referrer: created.url)
            guard session.firstFailure(.probeCreatedResolves, affordance, "after DELETE") else { continue }
            session.findings.append(finding(
                .probeCreatedResolves, affordance, url: created.url, expected: "404 or 410 after DELETE answered \(answer.status)", actual: "\(check.status)",
                message: "DELETE \(options.redaction.url(created.url)) answered \(answer.status), yet GET still answers \(check.status)",
                probe: ProbeRequest(label: "the created resource, deleted", field: "after DELETE")))
        }
    }
}
