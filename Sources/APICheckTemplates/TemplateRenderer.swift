import APICheckModel
import Foundation
import Logging
import Mustache
import Synchronization

/// Compiles templates once (cache keyed by file path + modification date + size, guarded by `Mutex`
/// from Synchronization) and renders them.
///
/// Templates are Mustache (hummingbird-project/swift-mustache) and see a ``TemplateContext``. A
/// template whose file name ends in `.json.mustache` escapes `{{name}}` for the inside of a JSON
/// string (quote, backslash, control characters) and does not HTML-escape; every other template
/// HTML-escapes `{{name}}`. `{{{name}}}` and `{{& name}}` are never escaped.
///
/// Templates are untrusted input: files are bounded to ``maximumTemplateBytes``, rendering to
/// ``maximumOutputBytes`` and ``maximumSectionIterations``, sections may nest 48 levels deep, and no
/// input crashes the renderer. Partials (`{{> name}}`) are not supported and render nothing.
///
/// ```swift
/// let renderer = TemplateRenderer()
/// let body = try renderer.render(template, context: TemplateContext(
///     request: request, pathParameters: ["id": "42"], baseURL: "http://127.0.0.1:8080"
/// ))
/// ```
public final class TemplateRenderer: Sendable {
    /// The largest template file a renderer reads: 16 MiB.
    public static let maximumTemplateBytes = 16 << 20
    /// The most one render may produce: 64 MiB.
    public static let maximumOutputBytes = 64 << 20
    /// The most section iterations one render may run: 1,000,000.
    public static let maximumSectionIterations = 1_000_000

    private struct CacheEntry: Sendable {
        var stamp: TemplateFile.Stamp
        var compiled: Result<CompiledTemplate, TemplateError>
    }

    private let logger: Logger
    private let cache = Mutex<[String: CacheEntry]>([:])

    /// A renderer with an empty cache. It logs compilations at `debug` level.
    public init(logger: Logger = Logger(label: "apicheck.templates", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.logger = logger
    }

    /// Renders; throws TemplateError when the file is gone, over 16 MiB, not UTF-8, or does not compile.
    ///
    /// Also throws when the output would exceed ``maximumOutputBytes`` or the sections would iterate
    /// more than ``maximumSectionIterations`` times. A name the context lacks renders as nothing.
    /// The variables are the template's own, overridden by the context's.
    public func render(_ template: StubTemplate, context: TemplateContext) throws(TemplateError) -> Data {
        let path = template.file.url.path
        let compiled = try compiled(path).get()
        let budget = RenderBudget(byteLimit: Self.maximumOutputBytes, iterationLimit: Self.maximumSectionIterations)
        budget.charge(compiled.staticBytes)
        let variables = template.variables.merging(context.variables) { _, contextValue in contextValue }
        let root = context.renderRoot(variables: variables, compiled: compiled, budget: budget)
        var output = ""
        RenderBudget.$current.withValue(budget) {
            for chunk in compiled.chunks {
                guard budget.overrun == nil else { break }
                output += chunk.render(root)
            }
        }
        switch budget.overrun {
        case .bytes?:
            throw TemplateError(path: path, "rendering would produce more than \(Self.maximumOutputBytes >> 20) MiB")
        case .iterations?:
            throw TemplateError(path: path, "rendering would run more than \(Self.maximumSectionIterations) section iterations")
        case nil:
            break
        }
        guard output.utf8.count <= Self.maximumOutputBytes else {
            throw TemplateError(path: path, "rendering would produce more than \(Self.maximumOutputBytes >> 20) MiB")
        }
        return Data(output.utf8)
    }

    /// Load-time checks for lint: compile errors (as .error) and references to names the context cannot provide (as .warning, e.g. `{{request.bogus}}`, `{{titel}}` when the stub only defines `title`). Returns [] when fine.
    ///
    /// Names below `request.pathParams`, `request.query`, `request.headers` and `request.json`, and
    /// names inside sections over such values, depend on the request and are not checked. Partials
    /// are reported as warnings: they render nothing.
    public func diagnose(_ template: StubTemplate) -> [Diagnostic] {
        let path = template.file.url.path
        if case .failure(let error) = compiled(path) { return [error.diagnostic] }
        do {
            let (_, text) = try TemplateFile.readText(path, maximumBytes: Self.maximumTemplateBytes)
            let scan = try? TemplateScanner.scan(text, defaultContentType: TemplateContentType.forTemplate(named: path), recordTags: true)
            return TemplateLint.check(scan?.tags ?? [], variables: template.variables, path: path)
        } catch {
            return [error.diagnostic]
        }
    }

    /// The compiled template for the file as it is now, from the cache when its stamp is unchanged.
    /// Failures to compile are cached too; a file that cannot be read is not.
    private func compiled(_ path: String) -> Result<CompiledTemplate, TemplateError> {
        let stamp: TemplateFile.Stamp
        do {
            stamp = try TemplateFile.stamp(path)
        } catch {
            cache.withLock { _ = $0.removeValue(forKey: path) }
            return .failure(error)
        }
        if let entry = cache.withLock({ $0[path] }), entry.stamp == stamp {
            return entry.compiled
        }
        let start = ContinuousClock.now
        let read: (TemplateFile.Stamp, String)
        do {
            read = try TemplateFile.readText(path, maximumBytes: Self.maximumTemplateBytes)
        } catch {
            return .failure(error)
        }
        let compiled = Result { () throws(TemplateError) in try CompiledTemplate.compile(read.1, path: path) }
        cache.withLock { $0[path] = CacheEntry(stamp: read.0, compiled: compiled) }
        switch compiled {
        case .success(let template):
            logger.debug(
                "Compiled template",
                metadata: ["path": "\(path)", "chunks": "\(template.chunks.count)", "duration": "\(ContinuousClock.now - start)"]
            )
        case .failure(let error):
            logger.debug("Template does not compile", metadata: ["path": "\(path)", "error": "\(error)"])
        }
        return compiled
    }
}
