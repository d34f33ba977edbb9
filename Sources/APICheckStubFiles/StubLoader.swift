import APICheckModel
import APICheckTemplates
import Foundation
import Logging
import Synchronization

/// Loads stub files (XML and JSON) from files and folders into one ``StubSet``.
///
/// Folders are walked recursively in a deterministic order (by relative path, bytewise). Every bad
/// file is reported as a located ``Diagnostic`` and contributes no stubs; every good file still
/// loads. Templates are compiled and checked here, so a template that does not compile makes the
/// file that uses it invalid, for `lint`, `serve`, its reloads and the test helpers alike (one
/// check, not one per caller). Files that a stub refers to (`body-file`, `body-template`) are assets, not stub files.
/// Each stub is tagged as scenario `<file name>` of use case `<folder>`, so a PESimu-Select tree
/// (`screen/use-case/scenario.xml`) can have one scenario per use case selected.
///
/// ```swift
/// let result = StubLoader(logger: logger).load(["stubs/acmeflix"])
/// for diagnostic in result.diagnostics { print(diagnostic) }   // path:line:col: error: …
/// let stubs = result.stubSet
/// ```
public struct StubLoader: Sendable {
    public var options: StubLoadOptions
    public var logger: Logger

    public init(options: StubLoadOptions = StubLoadOptions(), logger: Logger = Logger(label: "apicheck.stubs", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.options = options
        self.logger = logger
    }

    public func load(_ paths: [String]) -> StubLoadResult {
        let start = ContinuousClock.now
        var diagnostics: [Diagnostic] = []
        var candidates: [Candidate] = []
        for path in paths {
            collect(path, into: &candidates, diagnostics: &diagnostics)
        }
        if candidates.count > options.maximumFileCount {
            diagnostics.append(.error("\(candidates.count) stub files is over the limit of \(options.maximumFileCount); load a smaller folder", at: SourceLocation(path: paths.first ?? ".")))
            candidates.removeLast(candidates.count - options.maximumFileCount)
        }

        let decoded = decodeAll(candidates)
        // Only valid files name assets: a broken file must not hide a good stub file.
        let assets = Set(decoded.filter { !$0.diagnostics.contains { $0.severity == .error } }.flatMap(\.references))
        var files: [LoadedStubFile] = []
        var stubs: [Stub] = []
        var templates = TemplateChecks(renderer: TemplateRenderer(logger: logger))
        for (candidate, result) in zip(candidates, decoded) {
            if assets.contains(candidate.realPath) { continue }  // a body or template, not a stub file
            // Within a file, in the order of its lines, whichever check found each problem.
            diagnostics += result.diagnostics.sorted(by: Diagnostic.precedes)
            var failed = result.diagnostics.contains { $0.severity == .error }
            if !failed {
                let (new, templateFailed) = templates.check(result.stubs)
                diagnostics += new
                failed = templateFailed
            }
            files.append(LoadedStubFile(path: candidate.displayPath, stubCount: failed ? 0 : result.stubs.count, isValid: !failed))
            if !failed { stubs += result.stubs }
        }
        let set = StubSet(stubs)
        let errorCount = diagnostics.filter { $0.severity == .error }.count
        logger.debug(
            "loaded stubs",
            metadata: [
                "stubs": "\(set.count)", "files": "\(files.count)", "errors": "\(errorCount)",
                "duration": "\(ContinuousClock.now - start)",
            ]
        )
        return StubLoadResult(stubSet: set, diagnostics: diagnostics, files: files)
    }

    /// Each template file with each set of variables is checked once, however many stubs use it;
    /// its problems are reported once, and every file using a broken template is invalid.
    private struct TemplateChecks {
        let renderer: TemplateRenderer
        var results: [String: Bool] = [:]

        mutating func check(_ stubs: [Stub]) -> (diagnostics: [Diagnostic], failed: Bool) {
            var diagnostics: [Diagnostic] = []
            var failed = false
            for stub in stubs {
                for response in stub.sequence?.responses ?? [stub.response] {
                    guard case .template(let template) = response.body else { continue }
                    let key = template.file.url.path + "\u{0}" + template.variables.description
                    if let known = results[key] {
                        failed = failed || known
                        continue
                    }
                    let found = renderer.diagnose(template)
                    let broken = found.contains { $0.severity == .error }
                    results[key] = broken
                    diagnostics += found
                    failed = failed || broken
                }
            }
            return (diagnostics, failed)
        }
    }

    // MARK: Finding files

    private struct Candidate: Sendable {
        let displayPath: String
        let realPath: String
        /// The folder of the file relative to its root ("" at the root), for scenario use cases.
        let relativeFolder: String
        let root: StubRoot
    }

    private func collect(_ path: String, into candidates: inout [Candidate], diagnostics: inout [Diagnostic]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            diagnostics.append(.error("no such file or directory", at: SourceLocation(path: path)))
            return
        }
        if !isDirectory.boolValue {
            guard Self.format(of: path) != nil else {
                diagnostics.append(.error("not a stub file: stub files end in .xml or .json", at: SourceLocation(path: path)))
                return
            }
            let root = StubRoot(path: options.root ?? FileSystem.parent(of: FileSystem.realPath(path) ?? path))
            guard let real = FileSystem.realPath(path), root.contains(realPath: real) else {
                diagnostics.append(.error("the file is outside the stub root \(root.realPath)", at: SourceLocation(path: path)))
                return
            }
            let folder = FileSystem.parent(of: real)
            let relative = folder == root.realPath ? "" : String(folder.dropFirst(root.realPath.count + 1))
            candidates.append(Candidate(displayPath: path, realPath: real, relativeFolder: relative, root: root))
            return
        }
        let root = StubRoot(path: options.root ?? path)
        let walkLimit = options.maximumFileCount * 4
        guard let base = FileSystem.realPath(path), let (entries, truncated) = FileSystem.walk(base, maximumEntries: walkLimit) else {
            diagnostics.append(.error("cannot read the directory", at: SourceLocation(path: path)))
            return
        }
        let displayBase = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        if truncated {
            diagnostics.append(.error("the folder holds more than \(walkLimit) entries; only the first were read (load a smaller folder)", at: SourceLocation(path: path)))
        }
        var found: [(relative: String, real: String)] = []
        // Every folder with an apicheck.json is a stub set whose contract (the file, schemas/)
        // is not made of stub files, however deep it sits in what was loaded.
        let configured = Set(entries.compactMap { entry in
            entry.relativePath == StubSetConfiguration.fileName ? ""
                : entry.relativePath.hasSuffix("/" + StubSetConfiguration.fileName)
                ? String(entry.relativePath.dropLast(StubSetConfiguration.fileName.count + 1)) : nil
        })
        for entry in entries {
            let absolute = base + "/" + entry.relativePath
            if entry.kind == .symlink, FileSystem.isDirectory(absolute) {
                diagnostics.append(.warning("a symlinked folder is not followed; its stub files are not loaded", at: SourceLocation(path: displayBase + "/" + entry.relativePath)))
                continue
            }
            guard Self.format(of: entry.relativePath) != nil, !StubSetConfiguration.isReserved(entry.relativePath, configuredFolders: configured) else {
                continue
            }
            switch entry.kind {
            case .file:
                // Reached without following a symlink from a resolved base: inside it by construction.
                found.append((entry.relativePath, absolute))
            case .symlink:
                guard let real = FileSystem.realPath(absolute), root.contains(realPath: real) else {
                    let target = FileSystem.realPath(absolute) ?? "a missing file"
                    diagnostics.append(.error("a symlink to \(target), outside the stub root \(root.realPath); not loaded", at: SourceLocation(path: displayBase + "/" + entry.relativePath)))
                    continue
                }
                found.append((entry.relativePath, real))
            case .directory:
                continue  // a folder named like a stub file: walked like any folder
            case .other:
                found.append((entry.relativePath, absolute))  // reading reports "not a regular file"
            }
        }
        found.sort { $0.relative.utf8.lexicographicallyPrecedes($1.relative.utf8) }
        let baseInsideRoot = base == root.realPath ? "" : (root.contains(realPath: base) ? String(base.dropFirst(root.realPath.count + 1)) : "")
        for file in found where !file.relative.isEmpty {
            let folder = FileSystem.parent(of: file.relative)
            let relativeFolder = [baseInsideRoot, folder].filter { !$0.isEmpty }.joined(separator: "/")
            candidates.append(Candidate(displayPath: displayBase + "/" + file.relative, realPath: file.real, relativeFolder: relativeFolder, root: root))
        }
    }

    private enum Format { case xml, json }

    private static func format(of path: String) -> Format? {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".xml") { return .xml }
        if lowered.hasSuffix(".json") { return .json }
        return nil
    }

    // MARK: Decoding

    private struct FileResult: Sendable {
        var stubs: [Stub] = []
        var diagnostics: [Diagnostic] = []
        var references: [String] = []
    }

    private func decodeAll(_ candidates: [Candidate]) -> [FileResult] {
        let processors = ProcessInfo.processInfo.activeProcessorCount
        guard options.concurrent, processors > 1, candidates.count >= 64 else {
            let repeatedStrings = RepeatedStrings()
            return candidates.map { decode($0, repeatedStrings: repeatedStrings) }
        }
        let chunkCount = min(candidates.count, processors * 8)
        let chunks = Mutex<[Int: [FileResult]]>([:])
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let repeatedStrings = RepeatedStrings()
            let results = candidates[Self.chunk(chunk, of: chunkCount, splitting: candidates.count)].map {
                decode($0, repeatedStrings: repeatedStrings)
            }
            chunks.withLock { $0[chunk] = results }
        }
        return chunks.withLock { finished in (0..<chunkCount).flatMap { finished[$0] ?? [] } }
    }

    /// The `index`-th of `chunkCount` consecutive ranges that split `0..<count` as evenly as
    /// possible (sizes differ by at most one, none empty when `chunkCount <= count`).
    static func chunk(_ index: Int, of chunkCount: Int, splitting count: Int) -> Range<Int> {
        (index * count / chunkCount)..<((index + 1) * count / chunkCount)
    }

    private func decode(_ candidate: Candidate, repeatedStrings: RepeatedStrings) -> FileResult {
        var context = StubFileContext(
            displayPath: candidate.displayPath,
            folder: FileSystem.parent(of: candidate.realPath),
            root: candidate.root,
            options: options,
            repeatedStrings: repeatedStrings
        )
        let location = SourceLocation(path: candidate.displayPath)
        guard let bytes = readBounded(candidate.realPath, context: &context, location: location) else {
            return FileResult(diagnostics: context.diagnostics)
        }
        var stubs: [Stub]
        switch Self.format(of: candidate.realPath) {
        case .xml: stubs = XMLStubDecoder().decode(bytes, context: &context)
        case .json: stubs = JSONStubDecoder().decode(bytes, context: &context)
        case nil: stubs = []
        }
        // Every stub is scenario `<file name>` of use case `<folder>` (PESimu-Select's
        // `screen/use-case/scenario.xml`). Harmless where nobody selects: without a selection every
        // scenario competes and the usual order decides.
        let scenario = ScenarioTag(
            useCase: candidate.relativeFolder.isEmpty ? "." : candidate.relativeFolder,
            name: FileSystem.deletingExtension(of: FileSystem.lastComponent(of: candidate.displayPath))
        )
        for index in stubs.indices { stubs[index].scenario = scenario }
        return FileResult(stubs: stubs, diagnostics: context.diagnostics, references: context.references)
    }

    /// Reads a regular file no larger than the limit; never reads more than the limit.
    private func readBounded(_ path: String, context: inout StubFileContext, location: SourceLocation) -> [UInt8]? {
        switch FileSystem.readFile(path, maximumBytes: options.maximumStubFileBytes) {
        case .success(let bytes):
            return bytes
        case .failure(.notRegular):
            context.error("not a regular file", at: location)
        case .failure(.tooLarge(let size)):
            context.error("the file is \(size) bytes, over the stub file limit of \(options.maximumStubFileBytes) bytes (large bodies belong in a body-file)", at: location)
        case .failure(.cannotOpen(let reason)):
            context.error("cannot read the file: \(reason)", at: location)
        }
        return nil
    }
}

/// The outcome of loading: the stubs of every valid file, and what was wrong with the others.
public struct StubLoadResult: Sendable {
    public var stubSet: StubSet
    /// Errors and warnings in file order, then line order.
    public var diagnostics: [Diagnostic]
    public var files: [LoadedStubFile]

    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// One stub file that was read.
public struct LoadedStubFile: Sendable, Hashable {
    public var path: String
    public var stubCount: Int
    public var isValid: Bool
}
