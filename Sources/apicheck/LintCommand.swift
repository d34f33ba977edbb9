import APICheckCrawler
import APICheckHypermedia
import APICheckJSON
import APICheckModel
import APICheckStubFiles
import APICheckTemplates
import APICheckVerifier
import ArgumentParser
import Foundation

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check stub files and report every problem as path:line:column.",
        discussion: """
            Reads XML and JSON stub files (folders recursively) exactly as the interceptor and the \
            server would, and reports each problem like a compiler. The good files are unaffected \
            by the bad ones.

            Exit status: 0 when no file has an error (warnings allowed), 1 when any stub file is \
            invalid, 2 for usage errors.

            A folder's apicheck.json names the JSON Schema of each media type (profiles, \
            schemas/ beside it); every stub body of such a type, a template rendered with its \
            stub's variables, is checked against it (body-schema), as crawl checks live answers.

            Examples:
              apicheck lint stubs/acmeflix
              apicheck lint stubs/login.xml --root stubs
              apicheck lint stubs --format json > lint.json
              apicheck lint stubs/acmeflix --profile 'application/json=schemas/any.json'
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "Stub files or folders to check.", completion: .file())
    var paths: [String]

    @Option(help: "Output format: text or json (schemaVersion 1).")
    var format: Format = .text

    @Option(help: "The stub root that body-file paths resolve against and may not leave (default: each folder argument, or a file's own folder).", completion: .directory)
    var root: String?

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @OptionGroup(title: "Profiles (stub bodies against their media types' schemas)") var profileFlags: ProfileFlags

    func validate() throws {
        if paths.isEmpty {
            throw ValidationError("Name at least one stub file or folder, e.g. 'apicheck lint stubs/'.")
        }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("'\(path)': no such file or folder.")
        }
        try validateRoot(root)
        try profileFlags.validateProfiles()
    }

    func run() throws {
        // The loader compiles and checks templates, so a broken one is found before a request needs it.
        var result = StubLoader(options: StubLoadOptions(root: root)).load(paths)
        // The stub set's own contract: each body against the profile of its Content-Type.
        let (profiles, profileProblems) = profileFlags.load(stubFolders: paths)
        result.diagnostics += profileProblems + StubProfileCheck(profiles: profiles).diagnostics(result.stubSet.stubs)
        let failed = result.hasErrors || (strict && !result.warnings.isEmpty)
        let output = Output()
        switch format {
        case .text:
            for diagnostic in result.diagnostics { output.write(output.format(diagnostic)) }
            let invalid = result.files.filter { !$0.isValid }.count
            output.write(
                "\(counted(result.files.count, "stub file")), \(counted(result.stubSet.count, "stub")): "
                    + "\(counted(result.errors.count, "error")), \(counted(result.warnings.count, "warning"))"
                    + (invalid > 0 ? " (\(counted(invalid, "invalid file")) not loaded)" : "")
            )
        case .json:
            let report: JSONValue = .object([
                "schemaVersion": 1,
                "files": .array(result.files.map { .object(["path": .string($0.path), "stubs": .number(Double($0.stubCount)), "valid": .bool($0.isValid)]) }),
                "diagnostics": .array(result.diagnostics.map(\.jsonValue)),
                "summary": .object([
                    "files": .number(Double(result.files.count)), "stubs": .number(Double(result.stubSet.count)),
                    "errors": .number(Double(result.errors.count)), "warnings": .number(Double(result.warnings.count)),
                ]),
            ])
            output.write(JSONWriter(style: .pretty).string(report))
        }
        if failed { throw ExitCode(1) }
    }
}
