import APICheckFindings
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import ArgumentParser
import Foundation

/// `apicheck report`: work with the JSON reports that `apicheck crawl --format json` writes.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Work with JSON crawl reports: render one again, or merge the shards of one crawl.",
        discussion: """
            Examples:
              apicheck report merge report.json --format junit=report.xml --format sarif=report.sarif
              apicheck report merge report.json --baseline baseline.json --format github
              apicheck report merge shard-*.json --format text --format junit=report.xml
            """,
        subcommands: [Merge.self]
    )
}

extension ReportCommand {
    /// `apicheck report merge <report.json>… [report options]`: the shards of one crawl as one
    /// report, in any format, with the exit code of the whole crawl.
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Render a JSON crawl report again, or merge the reports of a sharded crawl, in any format.",
            discussion: """
                Reads JSON reports ('apicheck crawl --format json=report.json'): one, to render it \
                again in other formats or against a baseline; or the shards of one crawl \
                ('--shard i/n', deprecated: every shard fetches the whole API), keeping identical \
                findings, checks and errors once and adding up the counts. Writes the result as \
                'apicheck crawl' would: the same --format (repeatable, F[=FILE]), --output, \
                --rule, --strict, --baseline and --write-baseline.

                A report lists the first 20 occurrences of each defect (unless its crawl had \
                --all-occurrences) and the checks worth reading (unless --list-checks): what it \
                left out cannot be brought back here; the counts stay whole.

                Exit status: 0 when no finding fails; 1 when one does (an error, or a warning \
                with --strict); 2 when a report cannot be read, the reports are not shards of \
                one crawl (different root, tool, schema version, rule levels or shard count, or \
                two whole crawls), a shard is missing or a shard had an infrastructure error.

                Examples:
                  apicheck report merge report.json --format junit=report.xml \\
                      --format sarif=report.sarif --format markdown=summary.md
                  apicheck report merge report.json --baseline baseline.json --format github
                  apicheck report merge report.json --write-baseline baseline.json
                  apicheck report merge shard-*.json --format text --format junit=report.xml
                """
        )

        /// No CI matrix is wider than `Shard` allows.
        static let maximumReports = 10_000

        @Argument(
            help: ArgumentHelp("A JSON report ('apicheck crawl --format json=FILE'), or the reports of the shards of one crawl.", valueName: "report.json"),
            completion: .file(extensions: ["json"]))
        var reports: [String]

        @OptionGroup var options: ReportOptions

        func validate() throws {
            if reports.isEmpty {
                throw ValidationError("Name the shard reports to merge, e.g. 'apicheck report merge shard-*.json'.")
            }
            if reports.count > Self.maximumReports {
                throw ValidationError("\(reports.count) reports: a crawl has at most \(Self.maximumReports) shards.")
            }
        }

        func run() throws {
            try refuseAFileGivenTwice()
            var decoded: [ReadReport] = []
            for path in reports { decoded.append(try read(path)) }
            let merged: CrawlReport
            do {
                merged = try CrawlReport.merging(decoded.map(\.report))
            } catch {
                throw mismatch(error, in: decoded)
            }
            // What the reports left out cannot be listed again: say so rather than look complete.
            if options.allOccurrences, case let omitted = merged.omittedFindings.values.reduce(0, +), omitted > 0 {
                Output().writeError("apicheck report merge: notice: --all-occurrences cannot list \(omitted) \(omitted == 1 ? "occurrence" : "occurrences") the reports counted without listing them; crawl with --all-occurrences to have every one")
            }
            if options.listChecks, !merged.listsEveryCheck {
                Output().writeError("apicheck report merge: notice: --list-checks cannot list the passed checks the reports counted without listing them; crawl with --list-checks to have every check")
            }
            let code = try options.emit(merged)
            if code != 0 { throw ExitCode(code) }
        }

        /// The same file twice (however spelled) would be a shard given twice "compared with"
        /// itself; say what happened instead.
        private func refuseAFileGivenTwice() throws(UsageError) {
            var seen: [String: String] = [:]
            for path in reports {
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                let identity = "\(info.st_dev):\(info.st_ino)"
                if let first = seen[identity] {
                    let spelled = first == path ? "" : " (as \(first))"
                    throw UsageError(
                        path: path, message: "this report is given twice\(spelled)",
                        note: "give each shard's report once, e.g. 'apicheck report merge shard-*.json'")
                }
                seen[identity] = path
            }
        }

        private struct ReadReport {
            var path: String
            var report: CrawlReport
        }

        private func read(_ path: String) throws(UsageError) -> ReadReport {
            let note = "report merge reads the reports that 'apicheck crawl --shard i/n --format json --output FILE' writes; "
                + "check that every shard job finished and its report was downloaded"
            // Read a piece at a time: the checks (millions, for a large API) go through a
            // temporary file; the rest is bounded like any report.
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw UsageError(path: path, message: "cannot read the report: \(String(cString: strerror(errno)))", note: note)
            }
            guard info.st_mode & S_IFMT == S_IFREG else { throw UsageError(path: path, message: "the report is not a regular file", note: note) }
            do {
                return ReadReport(path: path, report: try CrawlReport(readingFile: path, maximumBytesBesideChecks: ReportOptions.maximumReportBytes))
            } catch {
                throw UsageError("\(error.description)\nnote: \(note)")
            }

        }

        /// Names the file that does not belong with the first one, when one pair shows it.
        private func mismatch(_ error: ReportMergeError, in decoded: [ReadReport]) -> UsageError {
            let note = "merge only the reports of one crawl: the same root, tool, --rule and --strict settings and --shard count"
            guard let first = decoded.first else { return UsageError("error: \(error)") }
            for other in decoded.dropFirst() {
                do {
                    _ = try CrawlReport.merging([first.report, other.report])
                } catch {
                    return UsageError(path: other.path, message: "\(error) (compared with \(first.path))", note: note)
                }
            }
            return UsageError("error: \(error)\nnote: \(note)")
        }
    }
}
