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
///
/// Each copy starts as the original value (`var copy = original`) and only then has the storage of
/// the fields it knows replaced, so a field added to the model later is carried as it is: it may
/// share storage (a cost), it is never lost (a wrong answer). A test compares every replica of the
/// repository's stubs and fixtures with the original.
enum StubSetReplica {
    static func make(_ set: StubSet) -> StubSet {
        StubSet(set.stubs.map(copy))
    }

    static func copy(_ stub: Stub) -> Stub {
        var copy = stub
        copy.id = fresh(stub.id)  // the first change gives the copy storage of its own
        copy.name = fresh(stub.name)
        copy.description = fresh(stub.description)
        copy.request = self.copy(stub.request)
        copy.response = self.copy(stub.response)
        copy.source.path = fresh(stub.source.path)
        if let scenario = stub.scenario {
            copy.scenario?.useCase = fresh(scenario.useCase)
            copy.scenario?.name = fresh(scenario.name)
        }
        if let sequence = stub.sequence {
            copy.sequence?.responses = sequence.responses.map(self.copy)
        }
        return copy
    }

    private static func copy(_ pattern: RequestPattern) -> RequestPattern {
        var copy = pattern
        copy.method = pattern.method.map(fresh)
        if let path = try? PathPattern.parse(fresh(pattern.path.text)).get(), path == pattern.path { copy.path = path }
        copy.query = pattern.query.map(self.copy)
        copy.headers = pattern.headers.map(self.copy)
        copy.body = pattern.body.map { constraint in
            switch constraint {
            case .jsonPointer(let path, let equals): .jsonPointer(path: fresh(path), equals: fresh(equals))
            case .contains(let text): .contains(fresh(text))
            }
        }
        if let origin = pattern.origin {
            copy.origin?.scheme = origin.scheme.map(fresh)
            copy.origin?.host = origin.host.map(fresh)
        }
        return copy
    }

    private static func copy(_ constraint: ValueConstraint) -> ValueConstraint {
        var copy = constraint
        copy.name = fresh(constraint.name)
        copy.value = constraint.value.map(fresh)
        return copy
    }

    private static func copy(_ response: StubResponse) -> StubResponse {
        var copy = response
        switch response.body {
        case .bytes(let data): copy.body = .bytes(Data([UInt8](data)))
        case .file(let file): copy.body = .file(self.copy(file))
        case .template(let template):
            // Templates render off the event loops, so their variables need no per-loop copy.
            var fresh = template
            fresh.file = self.copy(template.file)
            copy.body = .template(fresh)
        }
        copy.headers = response.headers.map { header in
            var copy = header
            copy.name = fresh(header.name)
            copy.value = fresh(header.value)
            return copy
        }
        copy.cookies = response.cookies.map { cookie in
            var copy = cookie
            copy.name = fresh(cookie.name)
            copy.value = fresh(cookie.value)
            copy.path = cookie.path.map(fresh)
            copy.domain = cookie.domain.map(fresh)
            return copy
        }
        return copy
    }

    private static func copy(_ file: StubFile) -> StubFile {
        var copy = file
        copy.declaredPath = fresh(file.declaredPath)
        copy.url = URL(fileURLWithPath: fresh(file.url.path), isDirectory: false)
        return copy
    }

    /// The same text in new storage (short strings are stored inline and have none to share).
    static func fresh(_ text: String) -> String {
        text.utf8.count <= 15 ? text : String(decoding: Array(text.utf8), as: UTF8.self)
    }
}
