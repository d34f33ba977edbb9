import APICheckModel
import Foundation

/// A copy of a stub set that shares no storage with the original: every string, array, body and
/// index is allocated anew.
///
/// Why: matching retains and releases the set's storage (the stub copied into the match, its
/// strings and arrays) several dozen times per request. When two event loops do that on the same
/// objects, every reference count is an atomic write on a cache line the other core owns, and
/// those writes cost more than the rest of the request (measured: retain and release were 43% of
/// the server's cycles with two loops). Each event loop therefore matches against its own replica;
/// the replicas have the same stubs in the same order, so matching gives the same answer.
enum StubSetReplica {
    static func make(_ set: StubSet) -> StubSet {
        StubSet(set.stubs.map(copy))
    }

    static func copy(_ stub: Stub) -> Stub {
        Stub(
            id: fresh(stub.id), name: fresh(stub.name), description: fresh(stub.description), request: copy(stub.request),
            response: copy(stub.response), priority: stub.priority, source: SourceLocation(path: fresh(stub.source.path), line: stub.source.line, column: stub.source.column),
            scenario: stub.scenario.map { ScenarioTag(useCase: fresh($0.useCase), name: fresh($0.name)) },
            sequence: stub.sequence.map { StubSequence(responses: $0.responses.map(copy), afterLast: $0.afterLast) }
        )
    }

    private static func copy(_ pattern: RequestPattern) -> RequestPattern {
        RequestPattern(
            method: pattern.method.map(fresh),
            path: (try? PathPattern.parse(fresh(pattern.path.text)).get()) ?? pattern.path,
            query: pattern.query.map(copy),
            headers: pattern.headers.map(copy),
            body: pattern.body.map { constraint in
                switch constraint {
                case .jsonPointer(let path, let equals): .jsonPointer(path: fresh(path), equals: fresh(equals))
                case .contains(let text): .contains(fresh(text))
                }
            },
            origin: pattern.origin.map { OriginConstraint(scheme: $0.scheme.map(fresh), host: $0.host.map(fresh), port: $0.port) }
        )
    }

    private static func copy(_ constraint: ValueConstraint) -> ValueConstraint {
        ValueConstraint(name: fresh(constraint.name), value: constraint.value.map(fresh))
    }

    private static func copy(_ response: StubResponse) -> StubResponse {
        let body: StubBody
        switch response.body {
        case .bytes(let data): body = .bytes(Data([UInt8](data)))
        case .file(let file): body = .file(copy(file))
        case .template(let template):
            // Templates render off the event loops, so their variables need no per-loop copy.
            body = .template(StubTemplate(file: copy(template.file), variables: Dictionary(uniqueKeysWithValues: template.variables.map { (fresh($0.key), $0.value) })))
        }
        return StubResponse(
            status: response.status,
            headers: response.headers.map { HTTPHeader(name: fresh($0.name), value: fresh($0.value)) },
            cookies: response.cookies.map { cookie in
                StubCookie(
                    name: fresh(cookie.name), value: fresh(cookie.value), path: cookie.path.map(fresh), domain: cookie.domain.map(fresh),
                    secure: cookie.secure, httpOnly: cookie.httpOnly, expires: cookie.expires, maxAge: cookie.maxAge, sameSite: cookie.sameSite
                )
            },
            body: body, latency: response.latency, failure: response.failure
        )
    }

    private static func copy(_ file: StubFile) -> StubFile {
        StubFile(declaredPath: fresh(file.declaredPath), url: URL(fileURLWithPath: fresh(file.url.path), isDirectory: false), byteCount: file.byteCount)
    }

    /// The same text in new storage (short strings are stored inline and have none to share).
    static func fresh(_ text: String) -> String {
        text.utf8.count <= 15 ? text : String(decoding: Array(text.utf8), as: UTF8.self)
    }
}
