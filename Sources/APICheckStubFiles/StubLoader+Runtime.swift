import APICheckModel
import Foundation

/// Stubs and request patterns sent to a running server's admin API, checked exactly as files
/// are: the same decoder, bounds and located messages (`request body:3:14: error: …`).
extension StubLoader {
    /// What decoding a request body gave: the stubs (none when any error was found, as a file
    /// with errors loads none) and every diagnostic.
    public struct RuntimeStubs: Sendable {
        public var stubs: [Stub]
        public var diagnostics: [Diagnostic]

        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// One JSON stub or `{"stubs": [...]}`, as a stub file holds them, sent to
    /// `POST /__apicheck/stubs`. `bodyFile` and `template` paths resolve in `folder` and may not
    /// leave it; with no folder (a server started from stubs in code) they are refused.
    ///
    /// ```swift
    /// let added = StubLoader().decodeStubs(json: bytes, named: "request body", folder: "stubs")
    /// ```
    public func decodeStubs(json bytes: [UInt8], named displayPath: String, folder: String?) -> RuntimeStubs {
        var context = context(named: displayPath, folder: folder)
        guard bytes.count <= options.maximumStubFileBytes else {
            context.error("the body is \(bytes.count) bytes, over the stub file limit of \(options.maximumStubFileBytes) bytes", at: SourceLocation(path: displayPath))
            return RuntimeStubs(stubs: [], diagnostics: context.diagnostics)
        }
        let stubs = JSONStubDecoder().decode(bytes, context: &context)
        let diagnostics = context.diagnostics.sorted(by: Diagnostic.precedes)
        return RuntimeStubs(stubs: context.hasErrors ? [] : stubs, diagnostics: diagnostics)
    }

    /// A request pattern (the keys of a stub's `"request"`; method and path may be left out to
    /// mean any) for journal queries. `nil` with the errors when it does not decode.
    public func decodeRequestPattern(json bytes: [UInt8], named displayPath: String) -> (pattern: RequestPattern?, diagnostics: [Diagnostic]) {
        var context = context(named: displayPath, folder: nil)
        guard bytes.count <= options.maximumStubFileBytes else {
            context.error("the body is \(bytes.count) bytes, over the limit of \(options.maximumStubFileBytes) bytes", at: SourceLocation(path: displayPath))
            return (nil, context.diagnostics)
        }
        let pattern = JSONStubDecoder().decodeRequestPattern(bytes, context: &context)
        return (context.hasErrors ? nil : pattern, context.diagnostics.sorted(by: Diagnostic.precedes))
    }

    private func context(named displayPath: String, folder: String?) -> StubFileContext {
        let root = folder.map { StubRoot(path: options.root ?? $0) }
            ?? StubRoot.withoutFiles("this server has no stub folder to read files from; send the body inline (\"body\" or \"bodyText\")")
        return StubFileContext(displayPath: displayPath, folder: folder ?? "/nonexistent", root: root, options: options)
    }
}
