import APICheckHypermedia
import APICheckJSON
import APICheckModel
import APICheckTemplates
import Foundation

/// Stubs checked against their stub set's own contract: each response body (inline, a body file,
/// or a template rendered with the stub's own variables) against the profile of its type, as
/// `body-schema` checks live answers. `apicheck lint` reports the problems as errors, `serve` as
/// warnings at load (it never rejects a request for them).
///
/// The type is the stub's `Content-Type`, else the type that the links of the other stubs declare
/// for it (a link `{"href": "/movies/1", "type": "vnd.acme.movie+json"}` whose GET this stub
/// answers), as a crawl of the set would see it. A body file's problems point into the body file
/// (`movie.json:3:11: error: …`); an inline body's at the stub.
public struct StubProfileCheck: Sendable {
    public var profiles: MediaTypeProfiles
    /// Bodies larger than this are not checked.
    public var maximumBodyBytes = 16 << 20
    let renderer: TemplateRenderer

    public init(profiles: MediaTypeProfiles, renderer: TemplateRenderer = TemplateRenderer()) {
        self.profiles = profiles
        self.renderer = renderer
    }

    /// One response body, rendered once for both passes.
    private struct Body {
        var stub: Stub
        var contentType: String?
        var bytes: [UInt8]
        /// The body file's path (beside its stub file) and parsed positions, for locations.
        var file: (path: String, node: JSONNode)?
        var isTemplate: Bool
    }

    /// The problems of every stub whose type has a profile, in the stubs' order.
    public func diagnostics(_ stubs: [Stub], severity: Diagnostic.Severity = .error) -> [Diagnostic] {
        guard !profiles.isEmpty else { return [] }
        let bodies = renderedBodies(stubs)
        let declared = declaredTypes(bodies, in: StubSet(stubs))
        var diagnostics: [Diagnostic] = []
        for body in bodies {
            guard let profile = profiles.profile(served: body.contentType, declared: declared[body.stub.id]) else { continue }
            diagnostics += check(body, profile: profile, severity: severity)
        }
        return diagnostics
    }

    private func renderedBodies(_ stubs: [Stub]) -> [Body] {
        var bodies: [Body] = []
        var readFiles = Set<String>()
        for stub in stubs {
            for response in stub.sequence?.responses ?? [stub.response] {
                let contentType = response.headers.first { $0.name.caseInsensitiveEquals("Content-Type") }?.value
                switch response.body {
                case .bytes(let data):
                    guard !data.isEmpty else { continue }
                    bodies.append(Body(stub: stub, contentType: contentType, bytes: [UInt8](data), isTemplate: false))
                case .file(let file):
                    // A body file several stubs share is checked once; the loader reports unreadable ones.
                    guard readFiles.insert(file.url.path).inserted, let read = try? file.contents(maximumBytes: maximumBodyBytes) else { continue }
                    let bytes = [UInt8](read)
                    let node = try? JSONParser().parse(bytes)
                    bodies.append(Body(
                        stub: stub, contentType: contentType, bytes: bytes, file: node.map { (Self.displayPath(file.url.path), $0) },
                        isTemplate: false))
                case .template(let template):
                    let context = TemplateContext(
                        request: StubRequest(method: stub.request.method ?? "GET", path: "/"), baseURL: "http://localhost", variables: template.variables)
                    // The loader reports templates that do not render.
                    guard let rendered = try? renderer.render(template, context: context) else { continue }
                    bodies.append(Body(stub: stub, contentType: contentType, bytes: [UInt8](rendered), isTemplate: true))
                }
            }
        }
        return bodies
    }

    /// The type each stub is linked with: for every typed GET link in any body, the stub that
    /// answers it (by the set's own matching); the first link wins.
    private func declaredTypes(_ bodies: [Body], in set: StubSet) -> [String: String] {
        var declared: [String: String] = [:]
        let extractor = LinkExtractor()
        for body in bodies {
            let extraction = extractor.extract(url: "http://localhost/", contentType: body.contentType, body: body.bytes)
            for link in extraction.links where link.method == "GET" {
                guard let type = link.type, case .url(let target) = link.resolve(), let url = URL(string: target),
                    let stub = set.match(StubRequest(method: "GET", url: url)).matched?.stub, declared[stub.id] == nil
                else { continue }
                declared[stub.id] = type
            }
        }
        return declared
    }

    private func check(_ body: Body, profile: MediaTypeProfile, severity: Diagnostic.Severity) -> [Diagnostic] {
        guard let instance = try? JSONParser().parseValue(body.bytes) else {
            return [Diagnostic(severity, "the body is not JSON, but its type has a profile (\(profile.key): \(profile.schemaName))", at: body.stub.source)]
        }
        let rendered = body.isTemplate ? " (rendered with the stub's variables)" : ""
        return BodySchemaRule.violations(of: instance, profile: profile).map { violation in
            var location = body.stub.source
            if let (path, node) = body.file {
                let position = node.deepestNode(along: violation.instanceLocation).position
                location = SourceLocation(path: path, line: position.line, column: position.column)
            }
            let field = violation.instanceLocation.isEmpty ? "the body" : "the body at \(violation.instanceLocation)"
            return Diagnostic(severity, "\(field)\(rendered) does not match the profile of \(profile.key): \(violation.error) (\(violation.keyword))", at: location)
        }
    }

    /// A body file's path as a person finds it: relative to the current folder when inside it
    /// (as the stub files' paths are printed), else absolute.
    static func displayPath(_ absolute: String) -> String {
        let current = FileManager.default.currentDirectoryPath
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }
}
