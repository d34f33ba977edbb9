import APICheckCrawler
import APICheckHypermedia
import APICheckJSON
import APICheckModel
import APICheckOpenAPI
import APICheckStubFiles
import APICheckTemplates
import APICheckVerifier
import ArgumentParser
import Foundation

struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check stub files and report every problem as path:line:column.",
        discussion: """
            Reads XML and JSON stub files (folders recursively) exactly as the interceptor and the \
            server would, and reports each problem like a compiler. The good files are unaffected \
            by the bad ones.

            Exit status: 0 when no file has an error (warnings allowed), 1 when any stub file is \
            invalid (or, with --openapi, a stub's answer is one the document does not allow), 2 \
            for usage errors.

            A folder's apicheck.json names the JSON Schema of each media type (profiles, \
            schemas/ beside it); every stub body of such a type, a template rendered with its \
            stub's variables, is checked against it (body-schema), as crawl checks live answers.

            With --openapi FILE every stub is also checked against an OpenAPI 3.0/3.1/3.2 \
            document, as crawl --openapi checks live answers: its request must be an operation \
            (openapi-operation, a warning), its status, Content-Type, body and required headers \
            ones the document allows (openapi-status, openapi-content-type, openapi-body: errors; \
            openapi-header: a warning). A template body is checked for its status and type only \
            (a note says so). A document that does not load is an error at its line (exit 2).

            Examples:
              apicheck lint stubs/acmeflix
              apicheck lint stubs/login.xml --root stubs
              apicheck lint stubs --format json > lint.json
              apicheck lint stubs/acmeflix --profile 'application/json=schemas/any.json'
              apicheck lint stubs/acmeflix --openapi stubs/acmeflix.openapi.yaml
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

    @Option(
        name: .customLong("openapi"),
        help: ArgumentHelp(
            "Check every stub against this OpenAPI 3.0/3.1/3.2 document (YAML or JSON, a file or an http(s) URL): request is an operation, response status, type, body, required headers (openapi-* rules).",
            valueName: "file-or-url"),
        completion: .file())
    var openAPI: String?

    func validate() throws {
        if paths.isEmpty {
            throw ValidationError("Name at least one stub file or folder, e.g. 'apicheck lint stubs/'.")
        }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("'\(path)': no such file or folder.")
        }
        try validateRoot(root)
        try profileFlags.validateProfiles()
        if let openAPI, !OpenAPIDocumentLoader.isURL(openAPI), !FileManager.default.fileExists(atPath: openAPI) {
            throw ValidationError("--openapi '\(openAPI)': no such file.")
        }
    }

    func run() async throws {
        // The document first: one that does not load is bad input (exit 2), located at its line.
        var documentCheck: StubDocumentCheck?
        if let openAPI {
            documentCheck = StubDocumentCheck(document: try await OpenAPIFlags.load(openAPI))
        }
        // The loader compiles and checks templates, so a broken one is found before a request needs it.
        var result = StubLoader(options: StubLoadOptions(root: root)).load(paths)
        // The stub set's own contract: each body against the profile of its Content-Type.
        let (profiles, profileProblems) = profileFlags.load(stubFolders: paths)
        result.diagnostics += profileProblems + StubProfileCheck(profiles: profiles).diagnostics(result.stubSet.stubs)
        // The stubs against the API's document: requests that are not operations, answers it does not allow.
        if let documentCheck { result.diagnostics += documentCheck.diagnostics(result.stubSet.stubs) }
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
