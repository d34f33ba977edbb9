import APICheckJSON
import APICheckModel
import APICheckResponder
import APICheckStubFiles
import Foundation
import NIOHTTP1

/// `/__apicheck/stubs` and `/__apicheck/reset`: the stubs served, and runtime stubs added,
/// replaced and removed (``ServerCore/addRuntimeStubs(_:)``). A body is a JSON stub file's
/// content, decoded by the files' decoder with the same bounds; its errors come back located
/// (`request body:4:15: error: …`) with status 422, and nothing is added.
extension AdminAPI {
    /// What runtime stubs' located messages name as their file.
    static let requestBodyName = "request body"

    static func stubs(method: HTTPMethod, id: String?, query: [StubRequest.QueryItem], body: [UInt8], core: ServerCore) -> Reply {
        switch (method, id) {
        case (.GET, nil):
            let value = { (name: String) in query.first { $0.name == name }?.value }
            let offset = max(0, value("offset").flatMap { Int($0) } ?? 0)
            let limit = max(0, value("limit").flatMap { Int($0) } ?? Int.max)
            return ok(stubList(core, search: value("q") ?? "", offset: offset, limit: limit))
        case (.GET, let id?):
            let runtime = core.runtimeStubs
            guard let stub = runtime.first(where: { $0.id == id }) ?? core.served.stubs.stubs.first(where: { $0.id == id }) else {
                return noSuchStub(id)
            }
            let isRuntime = runtime.contains { $0.id == id }
            return ok(.object([JSONMember("schemaVersion", 1), JSONMember("stub", summary(stub, runtime: isRuntime, shadowed: !isRuntime && shadows(stub.request.path)))]))
        case (.POST, nil):
            let decoded = decode(body, core: core)
            guard !decoded.hasErrors else { return invalid(decoded.diagnostics) }
            guard !decoded.stubs.isEmpty else { return problem(422, "No stub", "the body holds no stub: send one stub object, or {\"stubs\": [...]}") }
            switch core.addRuntimeStubs(decoded.stubs) {
            case .success(let added):
                core.logger.info("runtime stubs added: \(added.map(\.id).joined(separator: ", "))")
                return .now(
                    status: 201, body: .object([JSONMember("schemaVersion", 1), JSONMember("stubs", .array(added.map { summary($0, runtime: true, shadowed: false) })), warnings(decoded.diagnostics)]),
                    headers: [("Location", prefix + "stubs/" + added[0].id)])
            case .failure(let change):
                return refused(change)
            }
        case (.PUT, let id?):
            guard core.runtimeStubs.contains(where: { $0.id == id }) else {
                return core.served.stubs.stubs.contains { $0.id == id } ? fileStub(id) : noSuchStub(id)
            }
            let decoded = decode(body, core: core)
            guard !decoded.hasErrors else { return invalid(decoded.diagnostics) }
            guard decoded.stubs.count == 1, let stub = decoded.stubs.first else {
                return problem(422, "One stub expected", "PUT replaces one stub: send one stub object, not \(decoded.stubs.count)")
            }
            switch core.replaceRuntimeStub(id: id, with: stub) {
            case .success(let replaced?):
                core.logger.info("runtime stub replaced: \(id)")
                return ok(.object([JSONMember("schemaVersion", 1), JSONMember("stub", summary(replaced, runtime: true, shadowed: false)), warnings(decoded.diagnostics)]))
            case .success(nil):
                return noSuchStub(id)
            case .failure(let change):
                return refused(change)
            }
        case (.DELETE, let id?):
            guard let removed = core.removeRuntimeStub(id: id) else {
                return core.served.stubs.stubs.contains { $0.id == id } ? fileStub(id) : noSuchStub(id)
            }
            core.logger.info("runtime stub removed: \(removed.id)")
            return ok(.object([JSONMember("schemaVersion", 1), JSONMember("removed", summary(removed, runtime: true, shadowed: false))]))
        case (.DELETE, nil):
            let count = core.removeRuntimeStubs()
            return ok(.object([JSONMember("schemaVersion", 1), JSONMember("removed", .number(Double(count)))]))
        default:
            return methodNotAllowed(method, prefix + "stubs" + (id.map { "/" + $0 } ?? ""))
        }
    }

    /// `POST /__apicheck/reset`: the server as its files made it.
    static func reset(_ core: ServerCore) -> Reply {
        let removed = core.removeRuntimeStubs()
        core.responder.reset()
        core.logger.info("reset: \(removed) runtime stubs removed, journal, sequences and scenario selections cleared")
        return ok(.object([JSONMember("schemaVersion", 1), JSONMember("runtimeStubsRemoved", .number(Double(removed))), JSONMember("stubs", .number(Double(core.served.stubs.count)))]))
    }

    // MARK: Parts

    private static func decode(_ body: [UInt8], core: ServerCore) -> StubLoader.RuntimeStubs {
        let options = core.source?.options ?? StubLoadOptions()
        return StubLoader(options: options).decodeStubs(json: body, named: requestBodyName, folder: core.runtimeStubFolder)
    }

    /// Runtime stubs (newest first), then the files' stubs in load order; with `q`, those whose
    /// path, name or source holds it (any case); `offset` and `limit` page them (`count` is all
    /// that match).
    private static func stubList(_ core: ServerCore, search: String, offset: Int, limit: Int) -> JSONValue {
        let runtime = core.runtimeStubs
        let served = core.served
        let shadowed = Set(ServerCore.shadowed(in: served).map(\.id))
        let needle = search.lowercased()
        func matches(_ stub: Stub) -> Bool {
            needle.isEmpty || [stub.request.path.text, stub.name, stub.source.description].contains { $0.lowercased().contains(needle) }
        }
        let all = runtime.lazy.filter(matches).map { ($0, true) } + served.stubs.stubs.lazy.filter(matches).map { ($0, false) }
        let page = all.dropFirst(offset).prefix(limit).map { stub, isRuntime in summary(stub, runtime: isRuntime, shadowed: !isRuntime && shadowed.contains(stub.id)) }
        return .object([
            JSONMember("schemaVersion", 1), JSONMember("count", .number(Double(all.count))),
            JSONMember("runtimeCount", .number(Double(runtime.count))), JSONMember("stubs", .array(page)),
        ])
    }

    static func summary(_ stub: Stub, runtime: Bool, shadowed: Bool) -> JSONValue {
        var members = [
            JSONMember("id", .string(stub.id)), JSONMember("name", .string(stub.name)),
            JSONMember("origin", .string(runtime ? "runtime" : "file")),
            JSONMember("method", stub.request.method.map(JSONValue.string) ?? .null),
            JSONMember("path", .string(stub.request.path.text)), JSONMember("status", .number(Double(stub.response.status))),
            JSONMember("source", .string(stub.source.description)),
        ]
        let constraints = stub.request.query.map { "query \($0)" } + stub.request.headers.map { "header \($0)" } + stub.request.body.map { "body \($0)" }
        if !constraints.isEmpty { members.append(JSONMember("matches", .array(constraints.map(JSONValue.string)))) }
        if stub.priority != 0 { members.append(JSONMember("priority", .number(Double(stub.priority)))) }
        if let scenario = stub.scenario {
            members.append(JSONMember("scenario", .object([JSONMember("useCase", .string(scenario.useCase)), JSONMember("name", .string(scenario.name))])))
        }
        if let sequence = stub.sequence { members.append(JSONMember("sequenceLength", .number(Double(sequence.responses.count)))) }
        if let failure = stub.response.failure { members.append(JSONMember("failure", .string(failure.rawValue))) }
        if shadowed { members.append(JSONMember("shadowed", true)) }
        return .object(members)
    }

    private static func warnings(_ diagnostics: [Diagnostic]) -> JSONMember {
        JSONMember("warnings", .array(diagnostics.filter { $0.severity != .error }.map { .string($0.description) }))
    }

    /// 422 with every located error, in the shape of a rejected reload's.
    private static func invalid(_ diagnostics: [Diagnostic]) -> Reply {
        let errors = diagnostics.filter { $0.severity == .error }
        let document = StubReply.problem(
            status: 422, title: "Invalid stub",
            detail: errors.map(\.description).joined(separator: "\n"),
            extra: [JSONMember("diagnostics", diagnosticsJSON(diagnostics))])
        return .now(status: 422, body: document, headers: [])
    }

    private static func refused(_ change: ServerCore.RuntimeChange) -> Reply {
        switch change {
        case .tooMany(let limit):
            return problem(409, "Too many runtime stubs", "a server keeps at most \(limit) runtime stubs; remove some (DELETE /__apicheck/stubs/{id}) or put them in stub files")
        case .shadowed(let path):
            return problem(422, "Path of the admin API", "\(path) lies under \(prefix), which the admin API answers; the stub would never be served")
        }
    }

    private static func noSuchStub(_ id: String) -> Reply {
        problem(404, "No such stub", "no stub has the id \"\(id)\"; GET /__apicheck/stubs lists them")
    }

    private static func fileStub(_ id: String) -> Reply {
        problem(409, "A file's stub", "\"\(id)\" comes from a stub file: edit the file (the server reloads it), or add a runtime stub that answers first")
    }
}
