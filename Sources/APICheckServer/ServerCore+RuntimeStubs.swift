import APICheckModel
import APICheckResponder
import APICheckStubFiles
import Foundation
import Synchronization

/// Stubs added at run time through the admin API (`POST /__apicheck/stubs`), as WireMock's
/// `/__admin/mappings` adds them: kept apart from the files' stubs and answered before them
/// (the responder's overlay), so a test can override one answer and take it back. The newest
/// comes first: of two runtime stubs for the same request, the one added last answers. Reloading
/// the files keeps them; `DELETE /__apicheck/stubs` and `POST /__apicheck/reset` remove them.
struct RuntimeLayer: Sendable {
    /// Newest first, the order they are matched in.
    var stubs: [Stub] = []
    var nextNumber = 1
}

extension ServerCore {
    /// How many runtime stubs a server keeps: each is matched before the files' stubs on every
    /// request, and a script that adds in a loop should hear about it rather than slow the server.
    static let maximumRuntimeStubs = 10_000

    /// The folder runtime stubs' `bodyFile` and `template` paths resolve in: the stub root, or the
    /// first folder served; `nil` for a server started from stubs in code.
    var runtimeStubFolder: String? {
        guard let source else { return nil }
        if let root = source.options.root { return root }
        for path in source.paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                return isDirectory.boolValue ? path : (path as NSString).deletingLastPathComponent
            }
        }
        return nil
    }

    /// The runtime stubs, newest first.
    var runtimeStubs: [Stub] { runtimeLayer.withLock { $0.stubs } }

    enum RuntimeChange: Error, Equatable {
        case tooMany(limit: Int)
        case shadowed(String)
    }

    /// Adds `stubs` (decoded from one request body) before the other runtime stubs, in the order
    /// given, with ids `runtime-1`, `runtime-2`, …; returns them as stored.
    func addRuntimeStubs(_ stubs: [Stub]) -> Result<[Stub], RuntimeChange> {
        if let shadowed = stubs.first(where: { AdminAPI.shadows($0.request.path) }) { return .failure(.shadowed(shadowed.request.path.text)) }
        return runtimeLayer.withLock { layer in
            guard layer.stubs.count + stubs.count <= Self.maximumRuntimeStubs else { return .failure(.tooMany(limit: Self.maximumRuntimeStubs)) }
            var added: [Stub] = []
            for var stub in stubs {
                stub.id = "runtime-\(layer.nextNumber)"
                stub.source = Self.runtimeSource(stub.id, at: stub.source)
                layer.nextNumber += 1
                added.append(stub)
            }
            layer.stubs.insert(contentsOf: added, at: 0)
            responder.replaceOverlay(layer.stubs)
            return .success(added)
        }
    }

    /// Puts `stub` in the place of the runtime stub `id`, keeping the id; `nil` when there is none.
    func replaceRuntimeStub(id: String, with stub: Stub) -> Result<Stub?, RuntimeChange> {
        if AdminAPI.shadows(stub.request.path) { return .failure(.shadowed(stub.request.path.text)) }
        return .success(
            runtimeLayer.withLock { layer in
                guard let index = layer.stubs.firstIndex(where: { $0.id == id }) else { return nil }
                var replacement = stub
                replacement.id = id
                replacement.source = Self.runtimeSource(id, at: stub.source)
                layer.stubs[index] = replacement
                responder.replaceOverlay(layer.stubs)
                return replacement
            })
    }

    /// Where a runtime stub was written: its place in the body that sent it.
    static func runtimeSource(_ id: String, at location: SourceLocation) -> SourceLocation {
        SourceLocation(path: "POST /__apicheck/stubs (\(id))", line: location.line, column: location.column)
    }

    /// Removes the runtime stub `id`; `nil` when there is none.
    func removeRuntimeStub(id: String) -> Stub? {
        runtimeLayer.withLock { layer in
            guard let index = layer.stubs.firstIndex(where: { $0.id == id }) else { return nil }
            let removed = layer.stubs.remove(at: index)
            responder.replaceOverlay(layer.stubs)
            return removed
        }
    }

    /// Removes every runtime stub: the server answers from its files alone again. Returns how many.
    func removeRuntimeStubs() -> Int {
        runtimeLayer.withLock { layer in
            let count = layer.stubs.count
            layer.stubs.removeAll()
            responder.replaceOverlay([])
            return count
        }
    }
}
