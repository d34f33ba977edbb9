import APICheckModel
import Foundation

extension StubLoader {
    /// JSON stub files held in memory, named as if they sat in `folder` (the folder their body and
    /// template paths would resolve against): what `serve --openapi` loads, the same files
    /// `apicheck import openapi` writes, decoded by the same decoder as files on disk, so a
    /// document served directly and its imported stub set answer alike.
    ///
    /// ```swift
    /// let result = StubLoader().load(jsonFiles: [("petstore/listPets.200.json", bytes)], folder: "petstore")
    /// ```
    public func load(jsonFiles: [(path: String, bytes: [UInt8])], folder: String) -> StubLoadResult {
        let root = StubRoot(path: folder)
        var diagnostics: [Diagnostic] = []
        var files: [LoadedStubFile] = []
        var stubs: [Stub] = []
        let repeatedStrings = RepeatedStrings()
        for file in jsonFiles.prefix(options.maximumFileCount) {
            var context = StubFileContext(displayPath: file.path, folder: folder, root: root, options: options, repeatedStrings: repeatedStrings)
            var decoded: [Stub] = []
            if file.bytes.count > options.maximumStubFileBytes {
                context.error("the file is \(file.bytes.count) bytes, over the stub file limit of \(options.maximumStubFileBytes) bytes", at: SourceLocation(path: file.path))
            } else {
                decoded = JSONStubDecoder().decode(file.bytes, context: &context)
            }
            let scenario = ScenarioTag(useCase: ".", name: FileSystem.deletingExtension(of: FileSystem.lastComponent(of: file.path)))
            for index in decoded.indices { decoded[index].scenario = scenario }
            diagnostics += context.diagnostics.sorted(by: Diagnostic.precedes)
            let failed = context.hasErrors
            files.append(LoadedStubFile(path: file.path, stubCount: failed ? 0 : decoded.count, isValid: !failed))
            if !failed { stubs += decoded }
        }
        if jsonFiles.count > options.maximumFileCount {
            diagnostics.append(.error("\(jsonFiles.count) stub files is over the limit of \(options.maximumFileCount)", at: SourceLocation(path: folder)))
        }
        return StubLoadResult(stubSet: StubSet(stubs), diagnostics: diagnostics, files: files)
    }
}
