import APICheckModel
import Foundation
import Logging
import Synchronization

/// Loads stub files (XML and JSON) from files and folders into one ``StubSet``.
///
/// Folders are walked recursively in a deterministic order (by relative path, bytewise). Every bad
/// file is reported as a located ``Diagnostic`` and contributes no stubs; every good file still
/// loads. Files that a stub refers to (`body-file`, `body-template`) are assets, not stub files.
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
        let assets = Set(decoded.flatMap(\.references))
        var files: [LoadedStubFile] = []
        var stubs: [Stub] = []
        for (candidate, result) in zip(candidates, decoded) {
            if assets.contains(candidate.realPath) { continue }  // a body or template, not a stub file
            diagnostics += result.diagnostics
            let failed = result.diagnostics.contains { $0.severity == .error }
            files.append(LoadedStubFile(path: candidate.displayPath, stubCount: failed ? 0 : result.stubs.count, isValid: !failed))
            if !failed { stubs += result.stubs }
        }
        stubs = Self.tagScenarios(stubs, candidates: candidates)
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
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            let root = StubRoot(path: options.root ?? folder)
            let real = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            guard Self.format(of: path) != nil else {
                diagnostics.append(.error("not a stub file: stub files end in .xml or .json", at: SourceLocation(path: path)))
                return
            }
            guard root.contains(realPath: real) else {
                diagnostics.append(.error("the file is outside the stub root \(root.realPath)", at: SourceLocation(path: path)))
                return
            }
            let relative = String(URL(fileURLWithPath: real).deletingLastPathComponent().path.dropFirst(root.realPath.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            candidates.append(Candidate(displayPath: path, realPath: real, relativeFolder: relative, root: root))
            return
        }
        let root = StubRoot(path: options.root ?? path)
        let base = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        guard let enumerator = FileManager.default.enumerator(
            at: base, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey], options: [.skipsHiddenFiles]
        ) else {
            diagnostics.append(.error("cannot read the directory", at: SourceLocation(path: path)))
            return
        }
        var found: [(relative: String, real: String)] = []
        let basePath = base.path
        for case let url as URL in enumerator {
            guard Self.format(of: url.path) != nil else { continue }
            let standardized = url.standardizedFileURL.path
            guard standardized.hasPrefix(basePath) else { continue }
            let relative = String(standardized.dropFirst(basePath.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            found.append((relative, standardized))
        }
        found.sort { $0.relative.utf8.lexicographicallyPrecedes($1.relative.utf8) }
        let displayBase = path.hasSuffix("/") ? String(path.dropLast()) : path
        for file in found {
            let display = displayBase + "/" + file.relative
            let real = URL(fileURLWithPath: file.real).resolvingSymlinksInPath().path
            guard root.contains(realPath: real) else {
                diagnostics.append(.error("a symlink to \(real), outside the stub root \(root.realPath); not loaded", at: SourceLocation(path: display)))
                continue
            }
            let folder = (file.relative as NSString).deletingLastPathComponent
            candidates.append(Candidate(displayPath: display, realPath: real, relativeFolder: folder, root: root))
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
            return candidates.map(decode)
        }
        let chunkCount = min(candidates.count, processors * 8)
        let chunkSize = (candidates.count + chunkCount - 1) / chunkCount
        let chunks = Mutex<[Int: [FileResult]]>([:])
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let range = (chunk * chunkSize)..<min(candidates.count, (chunk + 1) * chunkSize)
            guard !range.isEmpty else { return }
            let results = candidates[range].map(decode)
            chunks.withLock { $0[chunk] = results }
        }
        return chunks.withLock { finished in (0..<chunkCount).flatMap { finished[$0] ?? [] } }
    }

    private func decode(_ candidate: Candidate) -> FileResult {
        var context = StubFileContext(
            displayPath: candidate.displayPath,
            folder: URL(fileURLWithPath: candidate.realPath).deletingLastPathComponent().path,
            root: candidate.root,
            options: options
        )
        let location = SourceLocation(path: candidate.displayPath)
        guard let bytes = readBounded(candidate.realPath, context: &context, location: location) else {
            return FileResult(diagnostics: context.diagnostics)
        }
        let stubs: [Stub]
        switch Self.format(of: candidate.realPath) {
        case .xml: stubs = XMLStubDecoder().decode(bytes, context: &context)
        case .json: stubs = JSONStubDecoder().decode(bytes, context: &context)
        case nil: stubs = []
        }
        return FileResult(stubs: stubs, diagnostics: context.diagnostics, references: context.references)
    }

    /// Reads a regular file no larger than the limit; never reads more than the limit.
    private func readBounded(_ path: String, context: inout StubFileContext, location: SourceLocation) -> [UInt8]? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            context.error("cannot read the file", at: location)
            return nil
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            context.error("not a regular file", at: location)
            return nil
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= options.maximumStubFileBytes else {
            context.error("the file is \(size) bytes, over the stub file limit of \(options.maximumStubFileBytes) bytes (large bodies belong in a body-file)", at: location)
            return nil
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            context.error("cannot open the file", at: location)
            return nil
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: options.maximumStubFileBytes + 1)) ?? Data()
        guard data.count <= options.maximumStubFileBytes else {
            context.error("the file grew over the stub file limit of \(options.maximumStubFileBytes) bytes while being read", at: location)
            return nil
        }
        return [UInt8](data)
    }

    // MARK: Scenarios

    /// Names every stub as scenario `<file name>` of use case `<folder>` (PESimu-Select's
    /// `screen/use-case/scenario.xml`). Harmless where nobody selects: without a selection every
    /// scenario competes and the usual order decides.
    private static func tagScenarios(_ stubs: [Stub], candidates: [Candidate]) -> [Stub] {
        let folderOf = Dictionary(candidates.map { ($0.displayPath, $0.relativeFolder) }, uniquingKeysWith: { first, _ in first })
        return stubs.map { stub in
            var tagged = stub
            let folder = folderOf[stub.source.path] ?? ""
            let fileName = (stub.source.path as NSString).lastPathComponent
            tagged.scenario = ScenarioTag(useCase: folder.isEmpty ? "." : folder, name: (fileName as NSString).deletingPathExtension)
            return tagged
        }
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
