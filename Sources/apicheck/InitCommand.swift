import ArgumentParser
import Foundation

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a stub set (and tests and CI) from APICheck's templates.",
        discussion: """
            Writes a starter stub set to DIR/stubs: a HAL root, a paginated collection with links, \
            a literal item, a templated item and an RFC 9457 problem document, with the shared \
            response templates in stubs/templates. It lints clean and crawls clean. With \
            --with-tests, a test file that loads the stubs with APICheckTesting; with --ci github, \
            a workflow that lints and crawls them on every push, and a nightly one that verifies \
            them against the live API (set the repository variable APICHECK_LIVE_URL).

            Never overwrites a file: if one of the files exists, nothing is written (exit 2).

            Examples:
              apicheck init
              apicheck init my-api --format xml
              apicheck init . --with-tests swift-testing --ci github
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, xml
    }

    enum TestKind: String, ExpressibleByArgument, CaseIterable {
        case swiftTesting = "swift-testing"
        case xctest
    }

    enum CI: String, ExpressibleByArgument, CaseIterable {
        case github
    }

    @Argument(help: "The project folder to write into (created if missing).", completion: .directory)
    var directory = "."

    @Option(help: "The stub file format: json or xml.")
    var format: Format = .json

    @Option(name: .customLong("with-tests"), help: ArgumentHelp("Also write a test file: swift-testing or xctest.", valueName: "kind"))
    var tests: TestKind?

    @Option(help: ArgumentHelp("Also write a CI workflow: github.", valueName: "system"))
    var ci: CI?

    func run() throws {
        let files = Scaffold(format: format.rawValue, tests: tests?.rawValue, ci: ci?.rawValue).files
        let folder = URL(fileURLWithPath: directory)
        let existing = files.map(\.path).filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
        guard existing.isEmpty else {
            throw UsageError(
                "apicheck init: \(existing.map { "'\(display($0))'" }.joined(separator: ", ")) already "
                    + "\(existing.count == 1 ? "exists" : "exist"); nothing was written.\n"
                    + "note: init never overwrites a file: move \(existing.count == 1 ? "it" : "them") away, or init into another folder.")
        }
        let output = Output()
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: url, options: .withoutOverwriting)
            } catch {
                throw UsageError(path: display(file.path), message: "could not be written: \(error.localizedDescription)")
            }
            output.write("wrote \(display(file.path))")
        }
        output.write("")
        output.write("Next:")
        output.write("  apicheck lint \(display("stubs"))")
        output.write("  apicheck crawl http://localhost:3000/ --stubs \(display("stubs"))")
        output.write("  apicheck serve \(display("stubs")) --port 3000")
        if tests != nil {
            output.write("")
            output.write("Add the test target to Package.swift, then run swift test:")
            output.write(#"  .testTarget(name: "StubbedAPITests", dependencies: [.product(name: "APICheckTesting", package: "apicheck")])"#)
        }
    }

    /// A path under the project folder as the user would type it.
    private func display(_ path: String) -> String {
        directory == "." ? path : (directory.hasSuffix("/") ? directory + path : directory + "/" + path)
    }
}

/// Which embedded template goes where in a project (templates/README.md).
struct Scaffold {
    struct File {
        var path: String
        var contents: String
    }

    var format: String
    var tests: String?
    var ci: String?

    var files: [File] {
        var files: [File] = []
        for (source, contents) in ScaffoldFiles.all.sorted(by: { $0.key < $1.key }) {
            if let name = source.strip(prefix: "starter/\(format)/") {
                files.append(File(path: "stubs/" + name, contents: contents))
            } else if let name = source.strip(prefix: "starter/common/") {
                files.append(File(path: "stubs/" + name, contents: contents))
            } else if let name = source.strip(prefix: "responses/") {
                files.append(File(path: "stubs/templates/" + name, contents: contents))
            } else if let tests, let name = source.strip(prefix: "tests/\(tests)/") {
                files.append(File(path: "Tests/StubbedAPITests/" + name, contents: contents))
            } else if let ci, let name = source.strip(prefix: "ci/\(ci)/") {
                files.append(File(
                    path: ".github/workflows/" + name,
                    contents: contents
                        .replacingOccurrences(of: "@APICHECK_ACTION@", with: APICheckVersion.action)
                        .replacingOccurrences(of: "@APICHECK_REPOSITORY@", with: APICheckVersion.repository)
                        .replacingOccurrences(of: "@APICHECK_VERSION@", with: APICheckVersion.current)))
            }
        }
        return files
    }
}

extension String {
    fileprivate func strip(prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
