import APICheckCrawler
import APICheckHypermedia
import APICheckJSON
import APICheckModel
import APICheckSchema
import APICheckVerifier
import ArgumentParser
import Foundation

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Validate JSON against a JSON Schema, and check schemas.",
        discussion: """
            JSON Schema 2020-12, 2019-09, draft 7, 6 and 4, and OpenAPI 3.0's schema dialect; the \
            draft comes from the schema's $schema, else --draft. Relative $refs are read from \
            files next to the schema; remote ones are never fetched.

            Examples:
              apicheck schema check schemas/movie.json movie.json
              apicheck schema check schemas/movie.json --jsonl answers.jsonl
              cat log.jsonl | apicheck schema check schemas/event.json --jsonl -
              apicheck schema check schemas/movie.json movie.json --format json
              apicheck schema lint schemas/movie.json
              apicheck schema generate schemas/movie.json --count 3 --seed 7
            """,
        subcommands: [SchemaCheckCommand.self, SchemaLintCommand.self, SchemaGenerateCommand.self, SchemaComplianceCommand.self]
    )
}

/// What `--draft` accepts: the engine's names and the usual spellings (`7`, `draft-07`).
struct DraftArgument: ExpressibleByArgument {
    var draft: JSONSchemaDraft

    init?(argument: String) {
        let spelled = argument.lowercased().replacingOccurrences(of: "draft-0", with: "draft").replacingOccurrences(of: "draft-", with: "draft")
        let aliases: [String: JSONSchemaDraft] = [
            "4": .draft4, "6": .draft6, "7": .draft7, "2019": .draft2019_09, "2020": .draft2020_12, "openapi": .openAPI30, "openapi-3.0": .openAPI30,
            "openapi30": .openAPI30,
        ]
        guard let draft = JSONSchemaDraft(rawValue: spelled) ?? aliases[spelled] else { return nil }
        self.draft = draft
    }

    static var allValueStrings: [String] { JSONSchemaDraft.allCases.map(\.rawValue) }
}

/// Options both subcommands read the schema with.
struct SchemaReading: ParsableArguments {
    @Argument(help: "The JSON Schema file.", completion: .file())
    var schema: String

    @Option(help: ArgumentHelp("The draft when the schema has no $schema: \(JSONSchemaDraft.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "draft"))
    var draft: DraftArgument?

    @Flag(name: .customLong("format-assertion"), help: "Check 'format' (date-time, email, uri, uuid, …) instead of treating it as an annotation.")
    var formatAssertion = false

    var options: JSONSchemaOptions {
        var options = JSONSchemaOptions()
        if let draft { options.defaultDraft = draft.draft }
        options.formatAssertion = formatAssertion
        return options
    }

    /// The compiled schema; a bad schema prints its located error and exits 2.
    func compile() throws -> JSONSchema {
        switch ProfileLoader(options: options).compileSchema(at: schema) {
        case .success(let compiled): return compiled
        case .failure(let problem):
            let output = Output(fileDescriptor: STDERR_FILENO)
            output.writeError(output.format(problem.diagnostic))
            output.writeError("apicheck schema: the schema cannot be used; 'apicheck schema lint \(schema)' lists every problem.")
            throw ExitCode(2)
        }
    }
}

struct SchemaCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate JSON files (or JSON Lines) against a schema.",
        discussion: """
            Each invalid instance is reported with the place of each problem, as \
            file:line:column: error: /pointer: what is wrong [schema keyword] (the errors to act on; \
            --format json lists all of them). With --jsonl, one \
            instance per line (of a file, or - for standard input): a line per invalid instance \
            and a summary, for bulk checks of recorded answers or logs. --format json prints JSON \
            Schema's basic output format, one object per line, with "instance" added.

            Exit status: 0 every instance is valid, 1 any is invalid, 2 the schema or an \
            instance cannot be read or parsed.

            Examples:
              apicheck schema check schemas/movie.json movie.json other.json
              apicheck schema check schemas/movie.json --jsonl answers.jsonl
              apicheck schema check openapi-3.0.json spec.json --draft openapi-3.0
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var reading: SchemaReading

    @Argument(help: "JSON files to validate.", completion: .file())
    var instances: [String] = []

    @Option(help: ArgumentHelp("Validate one JSON value per line of this file (- for standard input).", valueName: "file"), completion: .file())
    var jsonl: String?

    @Option(help: "Output: text or json (the basic output format).")
    var format: Format = .text

    @Option(help: ArgumentHelp("Threads validating JSON Lines (default: one per processor).", valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Largest instance file or line read, in bytes or with K/M/G.", valueName: "size"))
    var maxInstance = "256M"

    func validate() throws {
        if instances.isEmpty && jsonl == nil {
            throw ValidationError("Name instance files or --jsonl FILE, e.g. 'apicheck schema check schema.json movie.json'.")
        }
        if (jobs ?? 1) < 1 { throw ValidationError("--jobs must be at least 1.") }
        guard ServeCommand.byteCount(maxInstance) != nil else { throw ValidationError("--max-instance '\(maxInstance)' is not a size such as 64M.") }
    }

    func run() throws {
        let schema = try reading.compile()
        let report = InstanceReport(format: format, output: Output(), errorOutput: Output(fileDescriptor: STDERR_FILENO))
        let maximumBytes = ServeCommand.byteCount(maxInstance) ?? 256 << 20
        var tally = InstanceTally()
        for path in instances {
            switch BoundedFileReader.read(path, maximumBytes: maximumBytes) {
            case .failure(let failure):
                report.unreadable(SourceLocation(path: path), "\(failure)")
                tally.unreadable += 1
            case .success(let bytes):
                let node: JSONNode
                do {
                    node = try JSONParser().parse(bytes)
                } catch {
                    report.unreadable(SourceLocation(path: path, line: error.position.line, column: error.position.column), "not valid JSON: \(error.message)")
                    tally.unreadable += 1
                    continue
                }
                let output = schema.validate(node.value)
                tally.count(output.valid)
                report.result(output, instance: path) { pointer in
                    let position = node.deepestNode(along: pointer).position
                    return SourceLocation(path: path, line: position.line, column: position.column)
                }
            }
        }
        if let jsonl {
            let reader = JSONLinesValidation(schema: schema, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, maximumLineBytes: maximumBytes)
            let start = ContinuousClock.now
            let linesTally = try reader.run(path: jsonl, report: report)
            tally.add(linesTally)
            report.summary(tally, source: jsonl == "-" ? "standard input" : jsonl, duration: ContinuousClock.now - start)
        } else if instances.count > 1 || tally.invalid > 0 {
            report.summary(tally, source: nil, duration: nil)
        }
        if tally.unreadable > 0 { throw ExitCode(2) }
        if tally.invalid > 0 { throw ExitCode(1) }
    }
}

/// Counts of a run.
struct InstanceTally {
    var valid = 0
    var invalid = 0
    var unreadable = 0

    mutating func count(_ isValid: Bool) {
        if isValid { valid += 1 } else { invalid += 1 }
    }

    mutating func add(_ other: InstanceTally) {
        valid += other.valid
        invalid += other.invalid
        unreadable += other.unreadable
    }
}

/// How `schema check` writes results: text like a compiler, or the basic output format.
struct InstanceReport {
    let format: SchemaCheckCommand.Format
    let output: Output
    let errorOutput: Output

    /// One instance's result; `locate` turns an instance pointer into a place in the file.
    func result(_ result: JSONSchemaOutput, instance: String, locate: (String) -> SourceLocation) {
        switch format {
        case .json:
            guard case .object(let members) = result.json else { return }
            output.write(JSONWriter().string(.object([JSONMember("instance", .string(instance))] + members)))
        case .text:
            for unit in result.relevantErrors {
                let field = unit.instanceLocation.isEmpty ? "(the whole value)" : unit.instanceLocation
                output.write(output.format(Diagnostic(.error, "\(field): \(unit.error) [\(unit.keywordLocation)]", at: locate(unit.instanceLocation))))
            }
        }
    }

    func unreadable(_ location: SourceLocation, _ message: String) {
        errorOutput.writeError(errorOutput.format(Diagnostic(.error, message, at: location)))
    }

    func summary(_ tally: InstanceTally, source: String?, duration: Duration?) {
        let total = tally.valid + tally.invalid + tally.unreadable
        var line = "\(counted(total, "instance"))\(source.map { " from \($0)" } ?? ""): \(tally.valid) valid, \(tally.invalid) invalid"
        if tally.unreadable > 0 { line += ", \(tally.unreadable) not JSON" }
        if let duration {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            line += String(format: " in %.2f s", seconds)
        }
        errorOutput.writeError(line)
    }
}

struct SchemaLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a schema: against its draft's meta-schema, for unknown keywords and unresolvable $refs.",
        discussion: """
            Reports each problem as file:line:column: error|warning: …. A keyword the draft does \
            not know is a warning (a typo such as 'requried' silently checks nothing); an x- \
            prefixed one is an extension and is left alone.

            Exit status: 0 no errors (warnings allowed; --strict fails on them too), 1 the schema \
            has errors, 2 it cannot be read.

            Examples:
              apicheck schema lint schemas/movie.json
              apicheck schema lint legacy.json --draft 4 --strict
            """
    )

    @OptionGroup var reading: SchemaReading

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    func run() throws {
        let output = Output()
        let bytes: [UInt8]
        switch BoundedFileReader.read(reading.schema, maximumBytes: 64 << 20) {
        case .success(let read): bytes = read
        case .failure(let failure):
            output.writeError(output.format(.error("\(failure)", at: SourceLocation(path: reading.schema))))
            throw ExitCode(2)
        }
        let node: JSONNode
        do {
            node = try JSONParser().parse(bytes)
        } catch {
            output.writeError(output.format(.error("not valid JSON: \(error.message)", at: SourceLocation(path: reading.schema, line: error.position.line, column: error.position.column))))
            throw ExitCode(2)
        }
        let diagnostics = SchemaLint(path: reading.schema, options: reading.options).diagnostics(node)
        for diagnostic in diagnostics { output.write(output.format(diagnostic)) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        output.write("\(reading.schema): \(counted(errors, "error")), \(counted(warnings, "warning"))")
        if errors > 0 || (strict && warnings > 0) { throw ExitCode(1) }
    }
}

struct SchemaComplianceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compliance",
        abstract: "Run the official JSON-Schema-Test-Suite and print the compliance table per draft and keyword.",
        discussion: """
            Reads a checkout of the suite (tests/<draft>/ and remotes/; the repository vendors \
            one under Tests/APICheckSchemaTests/Suite) and runs every case: required keywords, \
            optional files, and optional/format with format assertion on. Remote references are \
            read from remotes/ as http://localhost:1234/…, never fetched. Prints passed/failed \
            per file, then each failing case with why, like Bowtie's compliance pages.

            Exit status: 0 when every required test passes, 1 when some fail, 2 when the suite \
            cannot be read.

            Examples:
              apicheck schema compliance Tests/APICheckSchemaTests/Suite
              apicheck schema compliance Tests/APICheckSchemaTests/Suite --draft 2020-12
            """
    )

    @Argument(help: "The suite's folder (holding tests/ and remotes/).", completion: .directory)
    var suite: String

    @Option(help: ArgumentHelp("Only this draft (default: all five and OpenAPI 3.0's dialect where the suite has it).", valueName: "draft"))
    var draft: DraftArgument?

    func run() throws {
        let drafts = draft.map { [$0.draft] } ?? [.draft4, .draft6, .draft7, .draft2019_09, .draft2020_12]
        var reports: [ComplianceReport] = []
        for draft in drafts {
            do {
                reports.append(try JSONSchemaTestSuite.run(suiteDirectory: suite, draft: draft))
            } catch {
                Output(fileDescriptor: STDERR_FILENO).writeError("apicheck schema compliance: \(error)")
                throw ExitCode(2)
            }
        }
        Output().write(ComplianceReport.table(reports))
        if reports.contains(where: { $0.tally(.required).failed > 0 }) { throw ExitCode(1) }
    }
}
