import APICheckJSON
import APICheckXML
import Foundation
import Testing

/// `--format F[=FILE]`, repeatable: one crawl (or verify, or report merge) rendered in several
/// formats, through the built binary. Crawls are of the demo stubs in memory (`--stubs`).
@Suite struct ReportFormatsTests {
    typealias Folder = ReportCommandTests.Folder

    static let crawl = ["crawl", "http://localhost:3000/", "--stubs", "stubs/acmeflix"]

    static func json(_ text: String) throws -> JSONValue {
        try JSONParser().parseValue(Array(text.utf8))
    }

    @Test func oneCrawlWritesEveryFileAndTextOnStandardOutput() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let result = try CLI.run(
            Self.crawl + [
                "--format", "text", "--format", "junit=\(folder.path("report.xml"))",
                "--format", "sarif=\(folder.path("report.sarif"))", "--format", "json=\(folder.path("report.json"))",
            ])
        // The demo has defects: the exit code is the report's, and every file is still written.
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("apicheck 0.1.0 crawl of http://localhost:3000/\n"), "\(result.stdout.prefix(200))")
        #expect(result.stdout.contains("13 defects in 116 findings (42 errors, 74 warnings)"), "\(result.stdout.suffix(300))")
        #expect(result.stderr.isEmpty, "\(result.stderr)")

        let junit = try XMLDocumentParser.parse(Array(try Data(contentsOf: folder.url.appendingPathComponent("report.xml"))))
        #expect(junit.name == "testsuites")
        #expect(!junit.elements(named: "testsuite").isEmpty)

        let sarif = try Self.json(try folder.read("report.sarif"))
        #expect(sarif["version"] == "2.1.0")
        let report = try Self.json(try folder.read("report.json"))
        #expect(report["schemaVersion"] == 4)
        #expect(report["exitCode"] == 1)
        // One report, several renderings: every format counts the same defects.
        #expect(report.value(at: "/counts/defects") == 13)
        #expect(ReportCommandTests.count(sarif.value(at: "/runs/0/results")) == 13)
        let failedCases = junit.elements(named: "testsuite").flatMap { $0.elements(named: "testcase") }.filter {
            $0.firstElement(named: "failure") != nil || $0.firstElement(named: "system-out") != nil
        }
        #expect(failedCases.count == 13, "\(failedCases.count) JUnit cases with a defect")

        // Nothing but the three reports: no temporary file is left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(names == ["report.json", "report.sarif", "report.xml"])
    }

    /// A merge is deterministic, so each file must be byte for byte what that format alone prints.
    @Test func eachFileIsWhatItsFormatAlonePrints() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let shards = try ReportCommandTests.writeShards(in: folder)
        let files = ["json": "r.json", "junit": "r.xml", "github": "r.github", "sarif": "r.sarif", "markdown": "r.md"]
        let together = try ReportCommandTests.merge(shards + ["--format", "text"] + files.flatMap { ["--format", "\($0.key)=\(folder.path($0.value))"] })
        #expect(together.status == 1, "\(together.stderr)")
        #expect(together.stdout == (try ReportCommandTests.merge(shards)).stdout)
        for (format, file) in files {
            let alone = try ReportCommandTests.merge(shards + ["--format", format])
            #expect(try folder.read(file) == alone.stdout, "\(format)")
        }
    }

    /// /proc exists but takes no new files (even as root): the write fails after validation.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self")))
    func aFileThatCannotBeWrittenDoesNotStopTheOthers() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let result = try CLI.run(Self.crawl + ["--format", "json=/proc/apicheck-report.json", "--format", "sarif=\(folder.path("r.sarif"))"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/proc/apicheck-report.json: error: cannot write the file"), "\(result.stderr)")
        #expect(try Self.json(try folder.read("r.sarif"))["version"] == "2.1.0")
    }

    /// Every JSON report apicheck writes validates against schemas/report.schema.json, as
    /// apicheck's own schema engine reads it (the listed form and `--list-checks` both).
    @Test(arguments: [[String](), ["--list-checks"], ["--all-occurrences", "--sample", "1"]])
    func theJSONReportValidatesAgainstItsSchema(extra: [String]) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let crawl = try CLI.run(Self.crawl + ["--format", "json=\(folder.path("r.json"))"] + extra)
        #expect(crawl.status == 1, "\(crawl.stderr)")
        let check = try CLI.run(["schema", "check", "schemas/report.schema.json", folder.path("r.json")])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func twoFormatsOnStandardOutputAreAUsageError() throws {
        let result = try CLI.run(Self.crawl + ["--format", "text", "--format", "json"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty, "refused before crawling")
        #expect(result.stderr.contains("--format text and --format json would both write to standard output"), "\(result.stderr)")
        #expect(result.stderr.contains("give the others a file, e.g. --format json=report.json."), "\(result.stderr)")
    }

    @Test func theSameFileTwiceIsAUsageError() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let first = folder.path("a.xml")
        let second = folder.url.path + "/./a.xml"
        let result = try CLI.run(Self.crawl + ["--format", "junit=\(first)", "--format", "sarif=\(second)"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--format junit=\(first) and --format sarif=\(second) write the same file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: first))

        let baseline = try CLI.run(Self.crawl + ["--format", "json=\(first)", "--write-baseline", first])
        #expect(baseline.status == 2)
        #expect(baseline.stderr.contains("--format 'json=\(first)' and --write-baseline name the same file"), "\(baseline.stderr)")
    }

    @Test func theSinglePairFormStillWorks() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let result = try CLI.run(Self.crawl + ["--format", "junit", "--output", folder.path("crawl.xml")])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let junit = try XMLDocumentParser.parse(Array(try Data(contentsOf: folder.url.appendingPathComponent("crawl.xml"))))
        #expect(junit.name == "testsuites")

        // --output alone: the default text, to the file.
        let text = try CLI.run(Self.crawl + ["--output", folder.path("crawl.txt")])
        #expect(text.status == 1)
        #expect(text.stdout.isEmpty)
        #expect(try folder.read("crawl.txt").contains("13 defects in 116 findings"))

        // --output is the file of the one format without =FILE, beside formats that have their own.
        let mixed = try CLI.run(Self.crawl + ["--format", "sarif=\(folder.path("m.sarif"))", "--format", "text", "--output", folder.path("m.txt")])
        #expect(mixed.status == 1, "\(mixed.stderr)")
        #expect(mixed.stdout.isEmpty)
        #expect(try folder.read("m.txt").contains("13 defects in 116 findings"))
        #expect(try Self.json(try folder.read("m.sarif"))["version"] == "2.1.0")
    }

    @Test func anAmbiguousOutputIsRefusedWithTheCommandMeant() throws {
        let pairs = try CLI.run(Self.crawl + ["--format", "junit", "--output", "a.xml", "--format", "sarif", "--output", "b.sarif"])
        #expect(pairs.status == 2)
        #expect(pairs.stderr.contains("--output is given 2 times (a.xml, b.sarif) but takes one file; write --format junit=a.xml --format sarif=b.sarif."), "\(pairs.stderr)")

        let twoBare = try CLI.run(Self.crawl + ["--format", "junit", "--format", "sarif", "--output", "a.xml"])
        #expect(twoBare.status == 2)
        #expect(twoBare.stderr.contains("--output 'a.xml' applies to the one --format given without '=FILE', but junit and sarif have none"), "\(twoBare.stderr)")

        let none = try CLI.run(Self.crawl + ["--format", "junit=a.xml", "--output", "b.txt"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("--output 'b.txt' has no format to apply to"), "\(none.stderr)")
    }

    @Test func anUnknownFormatSuggestsTheOneMeant() throws {
        let result = try CLI.run(Self.crawl + ["--format", "juint=report.xml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--format 'juint=report.xml': unknown format 'juint'. Did you mean 'junit'?"), "\(result.stderr)")
        let empty = try CLI.run(Self.crawl + ["--format", "json="])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("names no file after '='"), "\(empty.stderr)")
    }

    /// verify takes the same options: refused before it sends anything (nothing listens on port 9).
    @Test func verifyTakesTheSameFormats() throws {
        let result = try CLI.run(["verify", "stubs/acmeflix", "--against", "http://127.0.0.1:9", "--format", "sarif", "--format", "github"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--format sarif and --format github would both write to standard output"), "\(result.stderr)")
    }

    @Test(arguments: [["crawl"], ["verify"], ["report", "merge"]])
    func helpShowsTheRepeatableFormWithAnExample(command: [String]) throws {
        let help = try CLI.run(command + ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--format <format[=file]>"), "\(help.stdout)")
        #expect(help.stdout.contains("--format junit=") && help.stdout.contains("--format sarif="), "\(help.stdout)")
    }
}
