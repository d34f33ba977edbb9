import APICheckJSON
import APICheckModel
import APICheckStubFiles
import ArgumentParser
import Foundation

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the stubs of a stub file, normalised, as JSON.",
        discussion: """
            Shows what APICheck understood: status, headers in order, cookies with their \
            attributes, the body (as text when it is UTF-8, as base64 otherwise; body files are \
            read), name, description, request pattern and source location.

            Exit status: 0 when the file is valid, 1 when it has errors (printed to stderr), \
            2 for usage errors.

            Examples:
              apicheck show stubs/acmeflix/root.xml
              apicheck show stubs/acmeflix/posters/posters.xml --root stubs/acmeflix
            """
    )

    @Argument(help: "The stub file to show.", completion: .file(extensions: ["xml", "json"]))
    var file: String

    @Option(help: "The stub root that body-file paths resolve against (default: the file's folder).", completion: .directory)
    var root: String?

    func validate() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            throw ValidationError("'\(file)': no such file.")
        }
        if isDirectory.boolValue {
            throw ValidationError("'\(file)' is a folder; show takes one stub file (use 'apicheck lint \(file)' for a folder).")
        }
        try validateRoot(root)
    }

    func run() throws {
        let result = StubLoader(options: StubLoadOptions(root: root)).load([file])
        let output = Output(fileDescriptor: STDERR_FILENO)
        for diagnostic in result.diagnostics { output.writeError(output.format(diagnostic)) }
        if result.hasErrors { throw ExitCode(1) }
        let document: JSONValue = .object([
            "schemaVersion": 1,
            "stubs": .array(result.stubSet.stubs.map { $0.jsonValue() }),
        ])
        Output().write(JSONWriter(style: .pretty).string(document))
    }
}
