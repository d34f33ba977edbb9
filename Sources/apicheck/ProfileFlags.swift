import APICheckCrawler
import APICheckHypermedia
import APICheckModel
import APICheckSchema
import APICheckStubFiles
import APICheckVerifier
import ArgumentParser
import Foundation

/// `--profile TYPE=FILE` and friends, shared by crawl, lint, serve and verify: which JSON Schema
/// bodies of each media type must validate against (`body-schema`).
struct ProfileFlags: ParsableArguments {
    @Option(
        name: .customLong("profile"),
        help: ArgumentHelp(
            "The JSON Schema that bodies of a media type (or an RFC 6906 profile URI) must validate against; repeatable. Beats the stub set's apicheck.json.",
            valueName: "type=file"),
        completion: .file())
    var profiles: [String] = []

    @Flag(name: .customLong("format-assertion"), help: "Check 'format' in profiles (date-time, email, uri, uuid, …) instead of treating it as an annotation.")
    var formatAssertion = false

    var schemaOptions: JSONSchemaOptions {
        var options = JSONSchemaOptions()
        options.formatAssertion = formatAssertion
        return options
    }

    func validateProfiles() throws {
        for text in profiles {
            guard let equals = text.lastIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
                throw ValidationError("--profile '\(text)' is not 'type=file', e.g. --profile 'application/vnd.acme.movie+json=schemas/movie.json'.")
            }
        }
    }

    /// The profiles of `stubFolders`' `apicheck.json` files, then `--profile`s, with every
    /// problem as a located diagnostic.
    func load(stubFolders: [String] = []) -> (MediaTypeProfiles, [Diagnostic]) {
        var profiles = MediaTypeProfiles()
        var diagnostics: [Diagnostic] = []
        let loader = ProfileLoader(options: schemaOptions)
        // Every stub set in the folders given, the outer ones first (an inner one wins a type).
        let configured = stubFolders.filter(FileSystemCheck.isDirectory).flatMap { StubSetConfiguration.folders(under: $0) }
        for folder in configured {
            guard let (configuration, problems) = StubSetConfiguration.load(folder: folder) else { continue }
            diagnostics += problems
            let sources = configuration.profiles.map { ProfileLoader.Source(key: $0.key, path: $0.path, location: $0.location) }
            let (loaded, found) = loader.load(sources, folder: folder, root: folder)
            diagnostics += found
            profiles.merge(loaded)
        }
        for text in self.profiles {
            guard let equals = text.lastIndex(of: "=") else { continue }
            let path = String(text[text.index(after: equals)...])
            // A schema given here may refer to files beside it and below it.
            let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
            let (loaded, found) = loader.load([ProfileLoader.Source(key: String(text[..<equals]), path: path)], folder: ".", root: folder.isEmpty ? "/" : folder)
            diagnostics += found
            profiles.merge(loaded)
        }
        return (profiles, diagnostics)
    }
}

enum FileSystemCheck {
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
