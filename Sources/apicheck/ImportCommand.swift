import APICheckOpenAPI
import ArgumentParser
import Foundation

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn an API description into stub files.",
        discussion: """
            Examples:
              apicheck import openapi Examples/openapi/oai/petstore.yaml --to /tmp/pets
            """,
        subcommands: [ImportOpenAPICommand.self]
    )
}

struct ImportOpenAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Write a stub set from an OpenAPI 3.0/3.1/3.2 document (YAML or JSON).",
        discussion: """
            One JSON stub file per operation and documented status, and one per named example, \
            named <operationId>.<status>[.<example>].json (else <method>-<path>…). Bodies come \
            from the media type's example, else its examples, else are generated from the \
            response schema with --seed (valid against it); required response headers get their \
            example or a generated value. Paths are the document's templates, without the \
            servers' base path.

            Which answer a request gets follows Prism's Prefer header: none gives the \
            operation's default answer (its lowest 2xx, else 3xx, else default); \
            'Prefer: code=404' another documented status; 'Prefer: example=cat' a named example \
            of the default status, 'Prefer: code=404, example=missing' one of another status \
            (written in that order). 'apicheck serve --openapi FILE' serves the same stubs \
            without writing them.

            Refuses to write into a folder that is not empty unless --force is given (files of \
            the same name are then replaced; others stay). The set written passes 'apicheck lint'.

            Exit status: 0 written (warnings, e.g. a schema nothing can satisfy, on standard \
            error), 2 when the document cannot be read (file:line:column: error: …) or the \
            folder cannot be written.

            Examples:
              apicheck import openapi Examples/openapi/oai/petstore.yaml --to /tmp/pets
              apicheck import openapi stubs/acmeflix.openapi.yaml --to /tmp/acme --force
              apicheck lint /tmp/pets
            """
    )

    @Argument(help: "The OpenAPI document (YAML or JSON).", completion: .file())
    var document: String

    @Option(help: ArgumentHelp("The folder to write the stub files into (created if missing).", valueName: "dir"), completion: .directory)
    var to: String

    @Flag(help: "Write into a folder that already holds files, replacing files of the same name.")
    var force = false

    @Option(help: "The seed of generated bodies and values: the same document and seed give the same files.")
    var seed: UInt64 = 1

    func run() async throws {
        let errors = Output(fileDescriptor: STDERR_FILENO)
        let document = try await OpenAPIFlags.load(self.document)
        let stubs = OpenAPIStubBuilder(seed: seed).build(document)
        for diagnostic in stubs.diagnostics { errors.writeError(errors.format(diagnostic)) }

        let folder = URL(fileURLWithPath: to)
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw UsageError(path: to, message: "not a folder", note: "name a folder for the stub files") }
            let entries = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            if !entries.isEmpty, !force {
                throw UsageError(
                    path: to, message: "the folder is not empty (\(entries.count) \(entries.count == 1 ? "entry" : "entries"))",
                    note: "pass --force to write into it anyway, or name an empty or new folder")
            }
        } else {
            do {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw UsageError(path: to, message: "cannot create the folder: \((error as NSError).localizedDescription)")
            }
        }
        for file in stubs.files {
            let path = folder.appending(path: file.name).path
            do {
                try Data(file.bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw UsageError(path: path, message: "cannot write the file: \((error as NSError).localizedDescription)")
            }
        }
        let operations = Set(stubs.files.map(\.operation)).count
        Output().write(
            "Wrote \(counted(stubs.files.count, "stub file")) for \(counted(operations, "operation")) of \(self.document) into \(to)"
                + (stubs.diagnostics.isEmpty ? "" : " (\(counted(stubs.diagnostics.count, "warning")))"))
    }
}
