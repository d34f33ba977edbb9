import APICheckJSON
import Foundation
import Synchronization

/// The files a document's schemas `$ref` (`schemas/movie.json`, `common.yaml#/Id`): read from the
/// document's folder or below it, YAML or JSON, under the same limits as the document, at most
/// ``OpenAPIReadLimits/maximumExternalFiles`` of them. Remote references are read only from
/// what ``OpenAPIDocumentLoader`` fetched beforehand under its policy: a crawl must not fetch from
/// hosts its user did not name, nor depend on them.
final class ExternalReferences: Sendable {
    private let folder: URL?
    private let limits: OpenAPIReadLimits
    private let reader: OpenAPIDocumentReader
    private let filesRead = Mutex(0)

    init(root: URL?, limits: OpenAPIReadLimits, reader: OpenAPIDocumentReader) {
        folder = root?.deletingLastPathComponent().standardizedFileURL
        self.limits = limits
        self.reader = reader
    }

    /// The document at `uri` (no fragment), for ``APICheckSchema/JSONSchemaRegistry/retrieve``.
    @Sendable func retrieve(_ uri: String) throws -> JSONValue? {
        guard let url = URL(string: uri), let scheme = url.scheme?.lowercased() else { return nil }
        guard scheme == "file" else {
            if scheme == "http" || scheme == "https" {
                if let bytes = reader.remoteDocuments[uri] {
                    do {
                        return try reader.parse(bytes, file: uri).value
                    } catch {
                        throw ExternalReferenceError(error.description)
                    }
                }
                throw ExternalReferenceError(
                    "the remote $ref '\(uri)' is refused: only files beside the document, and documents on the origin a document was fetched from, are read; "
                        + "download it next to the document and refer to it by a relative path, or allow remote references (apicheck: --allow-remote-refs)")
            }
            return nil
        }
        guard let folder else {
            throw ExternalReferenceError("the $ref '\(uri)' names a file, but this document was not read from a folder")
        }
        let file = url.standardizedFileURL.resolvingSymlinksInPath()
        let base = folder.resolvingSymlinksInPath().path
        guard file.path.hasPrefix(base.hasSuffix("/") ? base : base + "/") else {
            throw ExternalReferenceError("the $ref '\(uri)' leaves the document's folder (\(base)); only files in it or below it are read")
        }
        let count = filesRead.withLock { count in
            count += 1
            return count
        }
        guard count <= limits.maximumExternalFiles else {
            throw ExternalReferenceError("more than \(limits.maximumExternalFiles) files are referenced through $ref")
        }
        let shown = String(file.path.dropFirst(base.count).drop { $0 == "/" })
        do {
            let bytes = try reader.readFile(file, shownAs: shown)
            return try reader.parse(bytes, file: shown).value
        } catch {
            throw ExternalReferenceError(error.description)
        }
    }
}

struct ExternalReferenceError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
