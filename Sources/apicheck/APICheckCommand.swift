import ArgumentParser
import CAPICheckMalloc
import Foundation

@main
struct APICheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apicheck",
        abstract: "Stub, serve and check hypermedia APIs from one set of stub files.",
        discussion: """
            Stub files are PEWire-Control XML or APICheck JSON files in a folder such as stubs/.

            Examples:
              apicheck init my-api --with-tests swift-testing --ci github
              apicheck lint stubs/acmeflix
              apicheck show stubs/acmeflix/root.xml
              apicheck serve stubs/acmeflix --port 3000
              apicheck crawl http://localhost:3000/ --stubs stubs/acmeflix
              apicheck report merge shard-*.json --format junit --output report.xml
              apicheck record https://api.example.com --to stubs/recorded --port 3000
              apicheck verify stubs/recorded --against https://api.example.com --coverage
              apicheck schema check stubs/acmeflix/schemas/movie.json movie.json
              apicheck import openapi Examples/openapi/oai/petstore.yaml --to /tmp/pets
              apicheck serve --openapi stubs/acmeflix.openapi.yaml --port 4010
            """,
        version: APICheckVersion.current,
        subcommands: [
            InitCommand.self, LintCommand.self, ShowCommand.self, ServeCommand.self, ImportCommand.self, RecordCommand.self, VerifyCommand.self, CrawlCommand.self, ProbeCommand.self, ReportCommand.self,
            SchemaCommand.self,
        ]
    )

    /// Exit codes follow FORMATS §7: 0 clean, 1 problems found, 2 usage or infrastructure errors.
    static func mainWithConventionalExitCodes() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as UsageError {
            // Found while running (a bad baseline, an unreadable report): the message is located
            // and says what to do; ArgumentParser's usage text would only bury it.
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            Foundation.exit(2)
        } catch {
            let code = exitCode(for: error)
            if code == .success || code == .failure {
                exit(withError: error)
            }
            // A mistyped option or command explains a failure better than what it caused.
            if let typo = ArgumentTypos.diagnose(Array(CommandLine.arguments.dropFirst())) {
                let usage = usageString(for: typo.command)
                let name = typo.command == APICheckCommand.self ? "apicheck" : "apicheck \(typo.command.configuration.commandName ?? "")"
                FileHandle.standardError.write(Data("Error: \(typo.message)\nUsage: \(usage)\n  See '\(name) --help' for more information.\n".utf8))
                Foundation.exit(2)
            }
            // ArgumentParser uses 64 (EX_USAGE) for bad input; APICheck promises 2.
            let message = fullMessage(for: error)
            if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            Foundation.exit(2)
        }
    }

    static func main() async {
        MemoryTuning.apply()
        await mainWithConventionalExitCodes()
    }
}

/// glibc's allocator keeps an arena per thread and, after a large block is freed, serves the next
/// large ones from the heap instead of mapping them: a long crawl (or a server under load) then
/// holds freed memory it cannot return. A fixed mapping threshold and few arenas keep the process
/// near what it uses (when introduced, with two arenas: a 1,000,000-resource crawl 457 → 388 MB
/// peak). One arena per processor plus the main thread's, not fewer: with two on two processors,
/// the worker threads shared one arena half the time and queued on its lock (loading 58 MB of
/// stubs: 1.4 s or 2.5-3.1 s by luck, 100,000 futex calls; with three: 1.3-1.6 s every time). The
/// environment's `MALLOC_ARENA_MAX` / `MALLOC_MMAP_THRESHOLD_` still win.
enum MemoryTuning {
    static func apply() {
        let environment = ProcessInfo.processInfo.environment
        guard environment["MALLOC_ARENA_MAX"] == nil, environment["MALLOC_MMAP_THRESHOLD_"] == nil else { return }
        apicheck_tune_malloc(Int32(arenas(processors: ProcessInfo.processInfo.activeProcessorCount)), 128 << 10)
    }

    /// The main thread's arena and one per processor, counting at most 8 processors (9 arenas:
    /// more only add held memory). A CPU quota that reports fewer processors than the loader's
    /// threads gives fewer arenas; two, the old behaviour, is the floor.
    static func arenas(processors: Int) -> Int {
        min(max(processors, 1), 8) + 1
    }
}

enum APICheckVersion {
    static let current = "0.1.0"
    /// Where APICheck's source lives: what `.package(url:)` lines and the CI workflow `init`
    /// writes fetch.
    static let repository = "https://github.com/apicheck/apicheck"
    /// The GitHub Action at this version (action.yml at the repository's root, tagged `vX.Y.Z`):
    /// what the workflows `init --ci github` writes use.
    static let action = repository.replacingOccurrences(of: "https://github.com/", with: "") + "@v" + current
}
