#if OpenAPI
import APICheckOpenAPI
import APICheckResponder
import Foundation

extension Stubs {
    /// Fails the test here once for each method and path the client requested that is not an
    /// operation of the OpenAPI document at `path` (relative to this test file, `#filePath`,
    /// unless absolute): the client must only call what the API documents.
    ///
    /// ```swift
    /// @Test(.stubs("stubs")) func listsMovies() async throws {
    ///     let stubs = Stubs.current
    ///     _ = try await MoviesClient(session: stubs.session).list()
    ///     stubs.expectDocumented(by: "openapi.yaml")   // Tests/AppTests/openapi.yaml
    /// }
    /// ```
    ///
    /// A request is documented when the document's servers' base paths, path templates and
    /// methods reach an operation (as `crawl --openapi` matches answers); hosts are not compared,
    /// since tests stub any origin. Requests no stub answered count too: the client sent them. A
    /// document that does not load is one failure naming its place (`openapi.yaml:41:7: …`).
    /// Needs the package's `OpenAPI` trait (README, "Add APICheck to your package").
    public func expectDocumented(
        by path: String,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let document: OpenAPIDocument
        do {
            document = try OpenAPIDocumentReader().read(path: stubFolder(path, relativeTo: filePath))
        } catch {
            reporter.fail("the OpenAPI document does not load: \(error)", at: site)
            return
        }
        for failure in Self.undocumented(journal.all, in: document, named: path) {
            reporter.fail(failure, at: site)
        }
    }

    /// One message per method and path of `entries` that `document` does not describe, in the
    /// order they were first requested.
    static func undocumented(_ entries: [JournalEntry], in document: OpenAPIDocument, named name: String) -> [String] {
        var counts: [String: Int] = [:]
        var order: [(key: String, message: String)] = []
        for entry in entries {
            let method = entry.request.method.uppercased()
            let rawPath = entry.url.path(percentEncoded: true)
            let path = rawPath.isEmpty ? "/" : rawPath
            let key = "\(method) \(path)"
            if let seen = counts[key] {
                counts[key] = seen + 1
                continue
            }
            let message: String
            switch document.operation(method: method, path: path) {
            case .operation:
                continue
            case .methodNotDocumented(let template, let methods):
                message = "\(key) is not documented by \(name): it lists only \(methods.joined(separator: ", ")) for \(template)"
            case .pathNotDocumented:
                let bases = document.basePaths.filter { !$0.isEmpty }
                let hint = bases.isEmpty ? "" : " under the servers' base paths (\(bases.joined(separator: ", ")))"
                message = "\(key) is not an operation of \(name): no path template matches it\(hint)"
            }
            counts[key] = 1
            order.append((key, message))
        }
        return order.map { item in
            let times = counts[item.key] ?? 1
            return times > 1 ? "\(item.message) (requested \(times) times)" : item.message
        }
    }
}
#endif
