import APICheckHTTPFetcher
import APICheckModel
import APICheckOpenAPI
import ArgumentParser
import Foundation
import Logging

/// `--openapi FILE|URL` and `--allow-remote-refs`: the document a command checks against, read
/// before any work starts, so one that does not load is a located error (exit 2).
struct OpenAPIFlags: ParsableArguments {
    @Option(
        name: .customLong("openapi"),
        help: ArgumentHelp(
            "Check every answer against this OpenAPI 3.0/3.1/3.2 document (YAML or JSON), a file or an http(s) URL such as FastAPI's /openapi.json: operation, status, type, body, required headers (openapi-* rules).",
            valueName: "file-or-url"),
        completion: .file())
    var openAPI: String?

    @Flag(
        name: .customLong("allow-remote-refs"),
        help: "Fetch the document's $refs to other hosts too (by default only files beside it, or, for a document read by URL, its own origin).")
    var allowRemoteRefs = false

    /// The document, its warnings and notes written to standard error; `nil` without `--openapi`.
    /// `credentials` go with the fetch only when the document is on `root`'s origin.
    func loadDocument(root: URL, credentials: [HTTPHeader]) async throws -> OpenAPIDocument? {
        guard let openAPI else { return nil }
        let standardError = Output(fileDescriptor: STDERR_FILENO)
        do {
            let document: OpenAPIDocument
            var loader = OpenAPIDocumentLoader(allowsRemoteReferences: allowRemoteRefs)
            if OpenAPIDocumentLoader.isURL(openAPI) || allowRemoteRefs {
                if let url = URL(string: openAPI), OriginRewriter.origin(of: url) == OriginRewriter.origin(of: root) { loader.headers = credentials }
                document = try await withHTTPFetcher(concurrency: 1, logger: Logger(label: "apicheck.openapi")) { fetcher in
                    loader.fetcher = fetcher
                    return try await loader.load(openAPI)
                }
            } else {
                document = try await loader.load(openAPI)
            }
            for warning in document.warnings { standardError.writeError("\(warning)") }
            return document
        } catch let error as OpenAPIError {
            standardError.writeError("\(error)")
            throw ExitCode(2)
        }
    }
}
