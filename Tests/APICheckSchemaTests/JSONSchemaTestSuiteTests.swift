import APICheckJSON
@testable import APICheckSchema
import Foundation
import Testing

/// The engine held to the official JSON-Schema-Test-Suite (vendored in `Suite/`, see its README).
///
/// Set `APICHECK_SCHEMA_COMPLIANCE_TABLE=/some/file` to have the compliance table written there
/// (`Benchmarks/schema-compliance.sh` does, and prints it).
@Suite struct JSONSchemaTestSuiteTests {
    static let suiteDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Suite").path

    @Test func meetsTheComplianceTargets() async throws {
        let directory = Self.suiteDirectory
        let reports = try await withThrowingTaskGroup(of: ComplianceReport.self) { group in
            for draft in JSONSchemaTestSuite.drafts {
                group.addTask { try JSONSchemaTestSuite.run(suiteDirectory: directory, draft: draft, formatAssertion: true) }
            }
            var reports: [ComplianceReport] = []
            for try await report in group { reports.append(report) }
            let order = JSONSchemaTestSuite.drafts
            return reports.sorted { order.firstIndex(of: $0.draft)! < order.firstIndex(of: $1.draft)! }
        }
        if let path = ProcessInfo.processInfo.environment["APICHECK_SCHEMA_COMPLIANCE_TABLE"], !path.isEmpty {
            try ComplianceReport.table(reports).write(toFile: path, atomically: true, encoding: .utf8)
        }
        for report in reports {
            let required = report.tally(.required)
            #expect(
                required.passRate >= 0.99,
                "\(report.draft.rawValue): \(required.passed) of \(required.passed + required.failed) required tests pass; first failures:\n\(Self.firstFailures(report, .required))"
            )
            let format = report.tally(.format)
            #expect(
                format.passRate >= 0.95,
                "\(report.draft.rawValue): \(format.passed) of \(format.passed + format.failed) in-scope format tests pass; first failures:\n\(Self.firstFailures(report, .format))"
            )
        }
    }

    /// The vendored copy is complete and shaped as the suite is: a truncated or hand-edited file
    /// would otherwise only show as a smaller test count.
    @Test(arguments: [
        // draft, required files, required tests, optional files, format files (the vendored copy's counts)
        (JSONSchemaDraft.draft4, 30, 610, 6, 7),
        (.draft6, 36, 829, 6, 10),
        (.draft7, 37, 913, 8, 18),
        (.draft2019_09, 46, 1227, 11, 20),
        (.draft2020_12, 46, 1257, 13, 21),
    ])
    func everyVendoredFileParsesAsTheSuite(draft: JSONSchemaDraft, required: Int, requiredTests: Int, optional: Int, format: Int) throws {
        let files = try JSONSchemaTestSuite.files(suiteDirectory: Self.suiteDirectory, draft: draft)
        let byCategory = Dictionary(grouping: files, by: \.category)
        #expect(byCategory[.required]?.count == required)
        #expect(byCategory[.required]?.reduce(0) { $0 + $1.cases.reduce(0) { $0 + $1.instances.count } } == requiredTests)
        #expect(byCategory[.optional]?.count == optional)
        #expect(byCategory[.format]?.count == format)
        for expected in ["ref.json", "type.json", "properties.json", "enum.json"] {
            #expect(files.contains { $0.path == expected }, "\(draft.rawValue) lacks \(expected)")
        }
    }

    @Test func remotesParseAndTakeTheSuitesURIs() throws {
        let remotes = try JSONSchemaTestSuite.remotes(suiteDirectory: Self.suiteDirectory)
        #expect(remotes.count == 83)
        let uris = Set(remotes.map(\.uri))
        for expected in ["http://localhost:1234/integer.json", "http://localhost:1234/draft2020-12/subSchemas.json"] {
            #expect(uris.contains(expected))
        }
        #expect(FileManager.default.fileExists(atPath: Self.suiteDirectory + "/LICENSE"))
    }

    @Test func aMalformedFileIsAnErrorNamingThePlace() {
        let error = #expect(throws: JSONSchemaTestSuiteError.self) {
            _ = try JSONSchemaTestSuite.parseCases(Array(#"[{"description": "x", "schema": {}, "tests": [{"data": 1}]}]"#.utf8), path: "bad.json")
        }
        #expect(error?.description.hasPrefix("bad.json:1:") == true, "\(String(describing: error))")
    }

    private static func firstFailures(_ report: ComplianceReport, _ category: JSONSchemaTestSuite.Category) -> String {
        report.files.filter { $0.category == category }.flatMap(\.failures).prefix(20)
            .map { "  \($0.file) › \($0.caseDescription) › \($0.testDescription): \($0.reason)" }
            .joined(separator: "\n")
    }
}
