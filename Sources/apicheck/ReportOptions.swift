import APICheckModel
import APICheckReport
import ArgumentParser
import Foundation

/// The report options that `apicheck crawl` and `apicheck report merge` share: format,
/// destination, rule levels, strictness and baselines. One implementation, so the two commands
/// cannot disagree about what a report looks like or which exit code it earns.
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
/// `validate()` (run by ArgumentParser before `run()`) refuses unknown rule ids and levels, and
/// `--output`/`--write-baseline` paths whose folder does not exist, as usage errors (exit 2)
/// before any work is done.
struct ReportOptions: ParsableArguments {
    /// Shard reports are at most this large (``CrawlReport/init(decoding:path:maximumBytes:)``'s default).
    static let maximumReportBytes = 256 << 20
    /// Baselines are at most this large (``Baseline/init(decoding:path:maximumBytes:)``'s default).
    static let maximumBaselineBytes = 64 << 20

    @Option(help: "The report format.")
    var format: ReportFormat = .text

    @Option(
        name: .customLong("output"),
        help: ArgumentHelp("Write the report to <file> (replaced atomically) instead of standard output.", valueName: "file"),
        completion: .file())
    var outputPath: String?

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

    func validate() throws {
        do {
            _ = try RuleConfiguration(parsing: ruleSettings, strict: strict)
        } catch {
            throw ValidationError(error.description + ".")
        }
        for (option, path) in [("--output", outputPath), ("--write-baseline", writeBaselinePath)] {
            if let path, let problem = AtomicFile.problem(writingTo: path) {
                throw ValidationError("\(option) '\(path)': \(problem).")
            }
        }
        if let outputPath, outputPath == writeBaselinePath {
            throw ValidationError("--output and --write-baseline name the same file '\(outputPath)'; give the baseline its own file.")
        }
        if let outputPath, outputPath == baselinePath {
            throw ValidationError("--output '\(outputPath)' would overwrite the --baseline it reads; write the report elsewhere.")
        }
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
    /// `--baseline`; rendering in `--format` (ANSI colour only for text on a terminal standard
    /// output without `NO_COLOR`); writing to `--output` atomically, or to standard output.
    ///
    /// Throws ``UsageError`` (exit 2) for an unreadable baseline or a file that cannot be written.
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

        let useColor = format == .text && outputPath == nil && Output().useColor
        let renderer = format.renderer(useColor: useColor, verbose: verbose)
        if let outputPath {
            try AtomicFile.write(to: outputPath) { sink in try renderer.render(report, chunkBytes: ReportChunk.defaultSize, to: sink) }
        } else {
            renderer.render(report, chunkBytes: ReportChunk.defaultSize) { piece in _ = AtomicFile.writeAll(piece, to: STDOUT_FILENO) }
        }
        // Written to a file, the report's infrastructure errors would be silent on the terminal.
        if outputPath != nil {
            for problem in report.errors { Output().writeError("apicheck: error: \(problem.message)") }
        }
        // A crawl that checked nothing passes; standard error says so wherever the report goes
        // (the text report on standard output says it itself).
        if let warning = report.nothingCheckedWarning, format != .text || outputPath != nil {
            Output().writeError("apicheck: warning: \(warning)")
        }
        if let failure = report.checks.readFailure {
            Output().writeError("apicheck: error: the report is incomplete: its checks could not be read back from a temporary file (\(failure)); check the free space and permissions of TMPDIR")
            return CrawlExitCode.infrastructureError.rawValue
        }
        return report.exitCode.rawValue
    }
}

extension ReportFormat: ExpressibleByArgument {}
