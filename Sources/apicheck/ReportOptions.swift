import APICheckFindings
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import ArgumentParser
import Foundation

/// The report options that `apicheck crawl`, `apicheck verify` and `apicheck report merge`
/// share: formats and their files, rule levels, strictness and baselines. One implementation, so
/// the commands cannot disagree about what a report looks like or which exit code it earns.
///
/// A command embeds it with `@OptionGroup` and hands the finished report to
/// ``emit(_:redaction:)``, which returns the exit code:
///
/// ```swift
/// struct CrawlCommand: ParsableCommand {
///     @OptionGroup var report: ReportOptions
///
///     func run() throws {
///         let rules = try report.ruleConfiguration()   // the levels to build findings with
///         _ = try report.loadBaseline()                // a bad baseline fails now, not after the crawl
///         let result: CrawlReport = …                  // crawl with `rules`
///         let code = try report.emit(result, redaction: redaction)
///         if code != 0 { throw ExitCode(code) }
///     }
/// }
/// ```
///
/// One run renders the report in several formats: `--format text --format junit=report.xml
/// --format sarif=report.sarif` (see ``ReportDestination``).
///
/// `validate()` (run by ArgumentParser before `run()`) refuses unknown rule ids, levels and
/// formats, two formats on standard output, a file named twice, and report or `--write-baseline`
/// paths whose folder does not exist, as usage errors (exit 2) before any work is done.
struct ReportOptions: ParsableArguments {
    /// Shard reports are at most this large (``CrawlReport/init(decoding:path:maximumBytes:)``'s default).
    static let maximumReportBytes = 256 << 20
    /// Baselines are at most this large (``Baseline/init(decoding:path:maximumBytes:)``'s default).
    static let maximumBaselineBytes = 64 << 20

    @Option(
        name: .customLong("format"),
        help: ArgumentHelp(
            "A report format, and the file to write it to (replaced atomically); repeatable, so one run writes several. "
                + "Formats: \(ReportOutputFormat.allNames.joined(separator: ", ")). "
                + "Without =file the format goes to standard output (at most one may); default: text.",
            valueName: "format[=file]"),
        completion: .list(ReportOutputFormat.allNames))
    var formats: [String] = []

    @Option(
        name: .customLong("output"),
        help: ArgumentHelp("Write the one --format given without =file to <file> instead of standard output (--format junit --output report.xml); give it once.", valueName: "file"),
        completion: .file())
    var outputs: [String] = []

    @Option(
        name: .customLong("baseline"),
        help: ArgumentHelp("Suppress the known findings listed in <file> (written by --write-baseline).", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var baselinePath: String?

    @Option(
        name: .customLong("write-baseline"),
        help: ArgumentHelp("Write the findings, before any --baseline is applied, to <file> as a baseline.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var writeBaselinePath: String?

    @Option(
        name: .customLong("rule"),
        help: ArgumentHelp(
            "Set a rule's level (repeatable; the last setting of a rule wins). Rules: \(RuleID.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "id=error|warning|off"))
    var ruleSettings: [String] = []

    @Flag(help: "Fail (exit 1) on warnings too, not only on errors.")
    var strict = false

    @Flag(name: .shortAndLong, help: "List every occurrence of each defect (text and Markdown), not three examples.")
    var verbose = false

    @Flag(help: "List every check in the report, passed ones too (by default passed checks are counted per place, and only failed, not checked and limit-skipped ones are listed).")
    var listChecks = false

    @Flag(help: "List every occurrence of each defect in the JSON report (by default the first \(Defect.occurrencesListed); the count is always whole).")
    var allOccurrences = false

    func validate() throws {
        do {
            _ = try RuleConfiguration(parsing: ruleSettings, strict: strict)
        } catch {
            throw ValidationError(error.description + ".")
        }
        let reportFiles = try destinations().filter { $0.path != nil }
        for destination in reportFiles {
            if let path = destination.path, let problem = AtomicFile.problem(writingTo: path) {
                throw ValidationError("\(destination.fileOption): \(problem).")
            }
        }
        if let writeBaselinePath, let problem = AtomicFile.problem(writingTo: writeBaselinePath) {
            throw ValidationError("--write-baseline '\(writeBaselinePath)': \(problem).")
        }
        for destination in reportFiles {
            let file = ReportDestination.fileIdentity(destination.path ?? "")
            if let writeBaselinePath, file == ReportDestination.fileIdentity(writeBaselinePath) {
                throw ValidationError("\(destination.fileOption) and --write-baseline name the same file; give the baseline its own file.")
            }
            if let baselinePath, file == ReportDestination.fileIdentity(baselinePath) {
                throw ValidationError("\(destination.fileOption) would overwrite the --baseline it reads; write the report elsewhere.")
            }
        }
    }

    /// Every rendering asked for: `--format F[=FILE]` (repeatable) with `--output`, as
    /// ``ReportDestination/resolve(formats:outputs:)`` reads them. Throws only for what
    /// `validate()` would have refused.
    func destinations() throws -> [ReportDestination] {
        try ReportDestination.resolve(formats: formats, outputs: outputs)
    }

    /// The rule levels and strictness from `--rule` and `--strict`: the crawler builds findings
    /// with these. Throws only for values `validate()` would have refused.
    func ruleConfiguration() throws -> RuleConfiguration {
        do {
            return try RuleConfiguration(parsing: ruleSettings, strict: strict)
        } catch {
            throw ValidationError(error.description + ".")
        }
    }

    /// Reads `--baseline`, or `nil` when none was given. A missing, unreadable or invalid file is
    /// a ``UsageError`` located like a compiler diagnostic (`file:line:column: error: …`, exit 2).
    /// ``emit(_:redaction:)`` calls it; a long-running command may call it first as well, so a
    /// bad baseline fails before the work rather than after it.
    func loadBaseline() throws(UsageError) -> Baseline? {
        guard let path = baselinePath else { return nil }
        let note = "write a baseline with --write-baseline \(path), or leave out --baseline"
        switch BoundedFileReader.read(path, maximumBytes: Self.maximumBaselineBytes) {
        case .failure(.cannotOpen(let reason)):
            throw UsageError(path: path, message: "cannot read the baseline: \(reason)", note: note)
        case .failure(.notRegular):
            throw UsageError(path: path, message: "the baseline is not a regular file", note: note)
        case .failure(.tooLarge(let size)):
            throw UsageError(path: path, message: "the baseline is \(size) bytes, more than the limit of \(Self.maximumBaselineBytes)")
        case .success(let bytes):
            do {
                return try Baseline(decoding: bytes, path: path, maximumBytes: Self.maximumBaselineBytes)
            } catch {
                throw UsageError("\(error.description)\nnote: a baseline is the JSON file that --write-baseline writes; \(note)")
            }
        }
    }

    /// Finishes `report` as the options say and writes it; returns the exit code (FORMATS §7):
    /// 0 when no finding fails, 1 when one does (an error, or a warning under `--strict`), 2
    /// when the report has infrastructure errors.
    ///
    /// In order: `redaction` (credentials never reach a report or baseline; already-redacted
    /// reports are unchanged); `--rule` and `--strict` on top of the report's own configuration
    /// (so a merge keeps the shards' levels unless told otherwise; findings of rules that are
    /// off are dropped, the others re-levelled); `--write-baseline` from these findings; then
    /// `--baseline`; then one rendering per `--format` of this one report (ANSI colour only for
    /// text on a terminal standard output without `NO_COLOR`), each file written atomically,
    /// whatever the findings.
    ///
    /// Throws ``UsageError`` (exit 2) for an unreadable baseline or a file that cannot be written
    /// (after writing the others).
    func emit(_ report: CrawlReport, redaction: Redaction = Redaction()) throws -> Int32 {
        let baseline = try loadBaseline()
        var report = redaction.report(report)

        var configuration = report.configuration
        for (rule, level) in try ruleConfiguration().overrides { configuration.overrides[rule] = level }
        configuration.strict = configuration.strict || strict
        report.configuration = configuration
        report.setFindings(configuration.apply(to: report.findings))

        if let writeBaselinePath {
            let known = Baseline(findings: report.findings)
            try AtomicFile.write(known.jsonString, to: writeBaselinePath)
            let entries = known.entries.count == 1 ? "1 entry" : "\(known.entries.count) entries"
            Output().writeError("apicheck: wrote the baseline \(writeBaselinePath) (\(entries))")
        }
        if let baseline { report = baseline.apply(to: report) }
        if !listChecks { report.listOnlyChecksWorthReading() }

        let destinations = try destinations()
        try write(report, to: destinations)
        // A crawl that checked nothing passes; standard error says so wherever the report goes
        // (the text report on standard output says it itself).
        if let warning = report.nothingCheckedWarning, !destinations.contains(where: { $0.path == nil && $0.format == .report(.text) }) {
            Output().writeError("apicheck: warning: \(warning)")
        }
        if let failure = report.checks.readFailure {
            Output().writeError("apicheck: error: the report is incomplete: its checks could not be read back from a temporary file (\(failure)); check the free space and permissions of TMPDIR")
            return CrawlExitCode.infrastructureError.rawValue
        }
        return report.exitCode.rawValue
    }

    /// Renders the finished report once per destination: files first (each replaced
    /// atomically), then standard output, so a closed pipe cannot cost the files. A file that
    /// cannot be written does not stop the others; the failures are thrown together afterwards.
    private func write(_ report: CrawlReport, to destinations: [ReportDestination]) throws(UsageError) {
        var failures: [UsageError] = []
        for destination in destinations {
            guard let path = destination.path else { continue }
            let renderer = destination.format.renderer(useColor: false, verbose: verbose, allOccurrences: allOccurrences)
            do {
                try AtomicFile.write(to: path) { sink in try renderer.render(report, chunkBytes: ReportChunk.defaultSize, to: sink) }
            } catch {
                failures.append(error)
            }
        }
        if let console = destinations.first(where: { $0.path == nil }) {
            let useColor = console.format == .report(.text) && Output().useColor
            let renderer = console.format.renderer(useColor: useColor, verbose: verbose, allOccurrences: allOccurrences)
            renderer.render(report, chunkBytes: ReportChunk.defaultSize) { piece in _ = AtomicFile.writeAll(piece, to: STDOUT_FILENO) }
        } else {
            // Every rendering went to a file: the infrastructure errors would be silent on the terminal.
            for problem in report.errors { Output().writeError("apicheck: error: \(problem.message)") }
        }
        if !failures.isEmpty {
            throw UsageError(failures.map(\.description).joined(separator: "\n"))
        }
    }
}
