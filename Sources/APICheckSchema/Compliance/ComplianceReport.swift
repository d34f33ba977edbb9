/// What one draft's run of the JSON-Schema-Test-Suite found: per file, how many instances got the
/// suite's answer, and for each that did not, which one and why. `table` prints it the way Bowtie's
/// compliance pages do (https://bowtie.report).
public struct ComplianceReport: Sendable {
    public var draft: JSONSchemaDraft
    /// Whether `optional/format/` ran with format assertion on.
    public var formatAssertion: Bool
    public var files: [File]
    /// Things that did not stop the run but may explain failures (a remote that was not registered).
    public var notes: [String]

    /// One suite file's counts; the file's name is the keyword it exercises.
    public struct File: Sendable {
        /// Relative to the draft's folder: `ref.json`, `optional/format/date.json`.
        public var path: String
        public var category: JSONSchemaTestSuite.Category
        public var passed = 0
        /// Instances not run because the engine does not claim them (formats out of scope).
        public var outOfScope = 0
        public var failures: [Failure] = []

        public var failed: Int { failures.count }
        public var total: Int { passed + failed + outOfScope }

        public init(path: String, category: JSONSchemaTestSuite.Category) {
            self.path = path
            self.category = category
        }
    }

    /// One instance whose answer differed from the suite's.
    public struct Failure: Sendable, Hashable {
        public var file: String
        public var caseDescription: String
        public var testDescription: String
        /// What the engine answered (both paths) and its first error, or why the schema did not compile.
        public var reason: String
        /// The instance, as compact JSON.
        public var data: String
        public var expectedValid: Bool
    }

    /// Counts over several files.
    public struct Tally: Sendable, Hashable {
        public var passed = 0
        public var failed = 0
        public var outOfScope = 0

        /// Passed over passed + failed (out-of-scope instances count for neither); 1 when nothing ran.
        public var passRate: Double { passed + failed == 0 ? 1 : Double(passed) / Double(passed + failed) }
    }

    public func tally(_ category: JSONSchemaTestSuite.Category) -> Tally {
        var tally = Tally()
        for file in files where file.category == category {
            tally.passed += file.passed
            tally.failed += file.failed
            tally.outOfScope += file.outOfScope
        }
        return tally
    }

    public var failures: [Failure] { files.flatMap(\.failures) }

    /// The report as text: a summary line per category, a row per file (passed, failed, total),
    /// then every failure with its reason.
    public var table: String {
        var lines: [String] = []
        lines.append("## \(Self.title(draft))")
        lines.append("")
        for category in JSONSchemaTestSuite.Category.allCases {
            let tally = tally(category)
            var line = "\(Self.label(category, formatAssertion: formatAssertion)): \(tally.passed)/\(tally.passed + tally.failed) passed"
            line += " (\(Self.percent(tally.passRate)))"
            if tally.outOfScope > 0 { line += ", \(tally.outOfScope) out of scope" }
            lines.append(line)
        }
        let outOfScopeFiles = files.filter { $0.outOfScope > 0 }.map(\.path)
        if !outOfScopeFiles.isEmpty {
            lines.append("Out of scope (not run, not failing): " + outOfScopeFiles.joined(separator: ", "))
        }
        for note in notes { lines.append("Note: \(note)") }
        lines.append("")
        let width = max(40, (files.map(\.path.count).max() ?? 0) + 2)
        lines.append(Self.pad("file", width) + Self.padLeft("passed", 8) + Self.padLeft("failed", 8) + Self.padLeft("total", 8))
        var previous: JSONSchemaTestSuite.Category?
        for file in files {
            if file.category != previous {
                lines.append("-- \(Self.label(file.category, formatAssertion: formatAssertion))")
                previous = file.category
            }
            var row = Self.pad(file.path, width) + Self.padLeft(String(file.passed), 8) + Self.padLeft(String(file.failed), 8)
            row += Self.padLeft(String(file.total), 8)
            if file.outOfScope > 0 { row += "  out of scope" }
            lines.append(row)
        }
        let failures = self.failures
        if !failures.isEmpty {
            lines.append("")
            lines.append("Failures (\(failures.count)):")
            for failure in failures {
                lines.append("- \(failure.file) › \(failure.caseDescription) › \(failure.testDescription)")
                lines.append("    \(failure.reason)")
                lines.append("    data: \(Self.shortened(failure.data, to: 200))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Several drafts' reports: an overview (one row per draft) followed by each draft's table.
    public static func table(_ reports: [ComplianceReport]) -> String {
        var lines = ["# JSON-Schema-Test-Suite compliance", ""]
        let width = 16
        lines.append(
            pad("draft", width) + padLeft("required", 16) + padLeft("optional", 16) + padLeft("format", 16))
        for report in reports {
            var row = pad(title(report.draft), width)
            for category in JSONSchemaTestSuite.Category.allCases {
                let tally = report.tally(category)
                row += padLeft("\(tally.passed)/\(tally.passed + tally.failed)", 16)
            }
            lines.append(row)
        }
        lines.append("")
        lines.append("Target: ≥ 99% of required tests per draft; ≥ 95% of optional/format tests for in-scope formats.")
        lines.append("Optional files are reported, not part of the target.")
        lines.append("Formats out of scope: idn-email, idn-hostname, iri, iri-reference, relative-json-pointer.")
        lines.append("")
        return lines.joined(separator: "\n") + "\n" + reports.map(\.table).joined(separator: "\n")
    }

    private static func title(_ draft: JSONSchemaDraft) -> String {
        switch draft {
        case .draft4, .draft6, .draft7: return "draft " + draft.rawValue.dropFirst("draft".count)
        default: return "draft " + draft.rawValue
        }
    }

    private static func label(_ category: JSONSchemaTestSuite.Category, formatAssertion: Bool) -> String {
        switch category {
        case .required: return "required"
        case .optional: return "optional (not part of the target)"
        case .format: return "optional/format (format assertion \(formatAssertion ? "on" : "off"))"
        }
    }

    private static func percent(_ rate: Double) -> String {
        let tenths = Int((rate * 1000).rounded(.down))
        return "\(tenths / 10).\(tenths % 10)%"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }

    private static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}
