import APICheckHTTPFetcher
import APICheckModel
import APICheckOpenAPI
import APICheckTLS
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

    /// The document, its warnings written to standard error; `nil` without `--openapi`.
    /// `credentials` go with the fetch only when the document is on `root`'s origin.
    func loadDocument(root: URL, credentials: [HTTPHeader], trust: ClientTrust = .system) async throws -> OpenAPIDocument? {
        guard let openAPI else { return nil }
        return try await Self.load(openAPI, allowRemoteRefs: allowRemoteRefs, credentials: credentials, credentialsOrigin: root, trust: trust)
    }

    /// Reads a document every command names the same way (a file, or an http(s) URL with its
    /// same-origin `$ref`s); one that does not load is written as a located error (exit 2).
    static func load(
        _ source: String, allowRemoteRefs: Bool = false, credentials: [HTTPHeader] = [], credentialsOrigin: URL? = nil, trust: ClientTrust = .system
    ) async throws -> OpenAPIDocument {
        let standardError = Output(fileDescriptor: STDERR_FILENO)
        do {
            let document: OpenAPIDocument
            var loader = OpenAPIDocumentLoader(allowsRemoteReferences: allowRemoteRefs)
            if OpenAPIDocumentLoader.isURL(source) || allowRemoteRefs {
                if let url = URL(string: source), let credentialsOrigin, OriginRewriter.origin(of: url) == OriginRewriter.origin(of: credentialsOrigin) {
                    loader.headers = credentials
                }
                document = try await withHTTPFetcher(concurrency: 1, trust: trust, logger: Logger(label: "apicheck.openapi")) { fetcher in
                    loader.fetcher = fetcher
                    return try await loader.load(source)
                }
            } else {
                document = try await loader.load(source)
            }
            for warning in document.warnings { standardError.writeError("\(warning)") }
            return document
        } catch let error as OpenAPIError {
            standardError.writeError("\(error)")
            throw ExitCode(2)
        }
    }
}
