import Foundation
import Testing

/// `apicheck init` writes what templates/ holds, never overwrites, and what it writes lints and
/// crawls clean.
@Suite struct InitCommandTests {
    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-init-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func contents(_ url: URL) -> String? {
        (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: ["json", "xml"])
    func theStarterLintsAndCrawlsClean(format: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try CLI.run(["init", folder.path, "--format", format, "--with-tests", "swift-testing", "--ci", "github"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.contains("wrote \(folder.path)/stubs/root.\(format)\n"))
        #expect(written.stdout.contains("apicheck crawl http://localhost:3000/ --stubs \(folder.path)/stubs\n"))
        let stubs = folder.appendingPathComponent("stubs").path
        let lint = try CLI.run(["lint", "--strict", stubs])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stdout.contains("5 stub files, 6 stubs: 0 errors, 0 warnings"), "\(lint.stdout)")
        let crawl = try CLI.run(["crawl", "http://localhost:3000/", "--stubs", stubs, "--var", "id=7"])
        #expect(crawl.status == 0, "\(crawl.stdout)")
        #expect(crawl.stdout.contains("0 defects in 0 findings"), "\(crawl.stdout)")
        #expect(crawl.stdout.contains("0 not checked"), "every link, the templated one with --var, is checked")
    }

    @Test func theFilesAreTheTemplatesOfTheRepository() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try CLI.run(["init", folder.path, "--with-tests", "xctest", "--ci", "github"]).status == 0)
        let templates = CLI.repository.appendingPathComponent("templates")
        let pairs = [
            ("starter/json/items.json", "stubs/items.json"),
            ("starter/common/templates/item.json.mustache", "stubs/templates/item.json.mustache"),
            ("responses/problem.json.mustache", "stubs/templates/problem.json.mustache"),
            ("responses/hal-page.json.mustache", "stubs/templates/hal-page.json.mustache"),
            ("tests/xctest/StubbedAPITests.swift", "Tests/StubbedAPITests/StubbedAPITests.swift"),
        ]
        for (template, written) in pairs {
            #expect(contents(folder.appendingPathComponent(written)) == contents(templates.appendingPathComponent(template)),
                    "\(written) differs from templates/\(template): run scripts/embed-templates")
        }
        let workflow = try #require(contents(folder.appendingPathComponent(".github/workflows/apicheck.yml")))
        // The repository's action at this version, crawling the stubs (not a build from source every run).
        #expect(workflow.contains("- uses: apicheck/apicheck@v0.1.0\n") && workflow.contains("stubs: stubs") && workflow.contains("root: http://localhost:3000/"))
        #expect(!workflow.contains("swift build"))
        #expect(!workflow.contains("@APICHECK_"), "every placeholder is filled")
        let drift = try #require(contents(folder.appendingPathComponent(".github/workflows/apicheck-drift.yml")), "the nightly verify workflow")
        #expect(drift.contains("apicheck verify \"$@\"") && drift.contains("--coverage") && drift.contains("schedule:"))
        #expect(drift.contains("- uses: apicheck/apicheck@v0.1.0\n") && drift.contains("install-only: \"true\""))
        #expect(!drift.contains("@APICHECK_"), "every placeholder is filled")
        // Every file under templates/ (but its README) is embedded: none added without the script.
        let sources = FileManager.default.enumerator(atPath: templates.path)?.compactMap { $0 as? String }
            .filter { !$0.hasSuffix("README.md") && !(($0 as NSString).pathExtension.isEmpty) } ?? []
        let embedded = try #require(contents(CLI.repository.appendingPathComponent("Sources/apicheck/ScaffoldFiles.swift")))
        for source in sources {
            #expect(embedded.contains("\"\(source)\": #\"\"\""), "templates/\(source) is not embedded: run scripts/embed-templates")
        }
    }

    @Test func nothingIsOverwrittenAndNothingHalfWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mine = folder.appendingPathComponent("stubs/root.json")
        try FileManager.default.createDirectory(at: mine.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("my own root".utf8).write(to: mine)
        let refused = try CLI.run(["init", folder.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("'\(folder.path)/stubs/root.json' already exists; nothing was written."), "\(refused.stderr)")
        #expect(contents(mine) == "my own root")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("stubs/items.json").path))
    }
}
