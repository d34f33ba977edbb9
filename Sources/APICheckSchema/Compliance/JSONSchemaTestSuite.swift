import APICheckJSON

/// Runs the official JSON-Schema-Test-Suite (https://github.com/json-schema-org/JSON-Schema-Test-Suite)
/// against this engine and counts what passes, so compliance is a measured number rather than a claim.
///
/// The suite is read from a folder laid out as the suite's repository (`tests/<draft>/…`,
/// `remotes/…`); the test target vendors one. Every file under `remotes/` is registered as
/// `http://localhost:1234/<path>` (the suite's convention), so nothing is fetched over the network.
///
/// ```swift
/// let report = try JSONSchemaTestSuite.run(suiteDirectory: "Tests/APICheckSchemaTests/Suite", draft: .draft2020_12)
/// print(report.table)
/// ```
public enum JSONSchemaTestSuite {
    /// Where a file sits in the suite, which decides whether it counts towards the target.
    public enum Category: String, Sendable, Hashable, CaseIterable {
        /// `tests/<draft>/*.json`: what every implementation must pass.
        case required
        /// `tests/<draft>/optional/*.json`: reported, not part of the target.
        case optional
        /// `tests/<draft>/optional/format/*.json`: run with format assertion on.
        case format
    }

    /// One file of the suite: test cases that each pair a schema with instances.
    public struct File: Sendable {
        /// Relative to the draft's folder: `ref.json`, `optional/bignum.json`, `optional/format/date.json`.
        public var path: String
        public var category: Category
        public var cases: [Case]
    }

    /// One schema and the instances it is tried on.
    public struct Case: Sendable {
        public var description: String
        public var schema: JSONNode
        public var instances: [Instance]
    }

    /// One instance and whether the suite says it is valid against its case's schema.
    public struct Instance: Sendable {
        public var description: String
        public var data: JSONValue
        public var valid: Bool
    }

    /// A document of `remotes/` and the URI the suite's tests refer to it by.
    public struct Remote: Sendable {
        /// Relative to `remotes/`: `draft2020-12/subSchemas.json`.
        public var path: String
        public var uri: String
        public var document: JSONNode
    }

    /// The drafts the suite has folders for and this engine implements.
    public static let drafts: [JSONSchemaDraft] = [.draft4, .draft6, .draft7, .draft2019_09, .draft2020_12]

    /// The formats the engine checks (the schema contract's list); format files for other formats
    /// are counted as out of scope, not as failures. `unknown` is the suite's check that an unknown
    /// format is ignored, and `ecmascript-regex` exercises `regex`.
    public static let inScopeFormats: Set<String> = [
        "date-time", "date", "time", "email", "hostname", "ipv4", "ipv6", "uri", "uri-reference",
        "uri-template", "uuid", "regex", "json-pointer", "duration", "unknown", "ecmascript-regex",
    ]

    /// The suite's folder name for a draft (`draft2019-09`).
    public static func folderName(_ draft: JSONSchemaDraft) throws(JSONSchemaTestSuiteError) -> String {
        guard let name = suiteFolder(draft) else { throw .unsupportedDraft(draft) }
        return name
    }

    /// nil for dialects the suite has no folder for (OpenAPI 3.0's).
    private static func suiteFolder(_ draft: JSONSchemaDraft) -> String? {
        let folders: [JSONSchemaDraft: String] = [
            .draft4: "draft4", .draft6: "draft6", .draft7: "draft7", .draft2019_09: "draft2019-09", .draft2020_12: "draft2020-12",
        ]
        return folders[draft]
    }

    /// Runs every file of one draft: required files with format as annotation, `optional/` likewise,
    /// `optional/format/` with `formatAssertion` (on by default, as those files expect).
    /// Each instance must get the suite's answer from both `isValid` and `validate`.
    public static func run(
        suiteDirectory: String, draft: JSONSchemaDraft, formatAssertion: Bool = true
    ) throws(JSONSchemaTestSuiteError) -> ComplianceReport {
        let (registry, notes) = try registry(suiteDirectory: suiteDirectory, draft: draft)
        let files = try files(suiteDirectory: suiteDirectory, draft: draft)
        var report = ComplianceReport(draft: draft, formatAssertion: formatAssertion, files: [], notes: notes)
        for file in files {
            report.files.append(run(file, draft: draft, registry: registry, formatAssertion: formatAssertion))
        }
        return report
    }

    /// Reads and checks the shape of every test file of a draft, required files first.
    public static func files(suiteDirectory: String, draft: JSONSchemaDraft) throws(JSONSchemaTestSuiteError) -> [File] {
        let folder = suiteDirectory + "/tests/" + (try folderName(draft))
        guard SuiteFileSystem.isDirectory(folder) else { throw .unreadable(folder, reason: "no such folder") }
        var files: [File] = []
        for path in SuiteFileSystem.jsonFiles(under: folder) {
            let category: Category =
                path.hasPrefix("optional/format/") ? .format : path.hasPrefix("optional/") ? .optional : .required
            let cases = try parseCases(try SuiteFileSystem.contents(of: folder + "/" + path), path: folder + "/" + path)
            files.append(File(path: path, category: category, cases: cases))
        }
        let order: [Category: Int] = [.required: 0, .optional: 1, .format: 2]
        return files.sorted { (order[$0.category]!, $0.path) < (order[$1.category]!, $1.path) }
    }

    /// Every document under `remotes/`, parsed, with the URI tests use for it.
    public static func remotes(suiteDirectory: String) throws(JSONSchemaTestSuiteError) -> [Remote] {
        let folder = suiteDirectory + "/remotes"
        guard SuiteFileSystem.isDirectory(folder) else { throw .unreadable(folder, reason: "no such folder") }
        var remotes: [Remote] = []
        for path in SuiteFileSystem.jsonFiles(under: folder) {
            let document = try parse(try SuiteFileSystem.contents(of: folder + "/" + path), path: folder + "/" + path)
            remotes.append(Remote(path: path, uri: "http://localhost:1234/" + path, document: document))
        }
        return remotes
    }

    /// A registry holding the remotes a draft's tests may refer to. Documents in another draft's
    /// folder are read as that draft; those at the top level as `draft`. draft3 and draft-next
    /// documents are left out (no tests of ours refer to them); what could not be added is noted.
    public static func registry(
        suiteDirectory: String, draft: JSONSchemaDraft
    ) throws(JSONSchemaTestSuiteError) -> (registry: JSONSchemaRegistry, notes: [String]) {
        var registry = JSONSchemaRegistry()
        var notes: [String] = []
        var skippedFolders: Set<String> = []
        let folders = Dictionary(uniqueKeysWithValues: drafts.compactMap { draft in suiteFolder(draft).map { ($0, draft) } })
        for remote in try remotes(suiteDirectory: suiteDirectory) {
            var documentDraft = draft
            if let slash = remote.path.firstIndex(of: "/") {
                let folder = String(remote.path[..<slash])
                if let folderDraft = folders[folder] {
                    documentDraft = folderDraft
                } else if folder.hasPrefix("draft") {
                    skippedFolders.insert(folder)
                    continue
                }
            }
            do throws(JSONSchemaError) {
                try registry.add(remote.document, uri: remote.uri, file: suiteDirectory + "/remotes/" + remote.path, draft: documentDraft)
            } catch {
                notes.append("remote \(remote.uri) not registered: \(error)")
            }
        }
        if !skippedFolders.isEmpty {
            notes.append("remotes of other drafts not registered: " + skippedFolders.sorted().joined(separator: ", "))
        }
        return (registry, notes)
    }

    /// The format a file of `optional/format/` tests (its name), or nil for other files.
    static func format(of file: File) -> String? {
        guard file.category == .format else { return nil }
        let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
        return String(name.dropLast(".json".count))
    }

    static func run(_ file: File, draft: JSONSchemaDraft, registry: JSONSchemaRegistry, formatAssertion: Bool) -> ComplianceReport.File {
        var result = ComplianceReport.File(path: file.path, category: file.category)
        if let format = format(of: file), !inScopeFormats.contains(format) {
            result.outOfScope = file.cases.reduce(0) { $0 + $1.instances.count }
            return result
        }
        var options = JSONSchemaOptions()
        options.defaultDraft = draft
        options.formatAssertion = file.category == .format && formatAssertion
        for testCase in file.cases {
            let schema: JSONSchema
            do throws(JSONSchemaError) {
                schema = try JSONSchema(testCase.schema, baseURI: nil, registry: registry, options: options)
            } catch {
                for instance in testCase.instances {
                    result.failures.append(failure(file, testCase, instance, reason: "the schema did not compile: \(error)"))
                }
                continue
            }
            for instance in testCase.instances {
                if let reason = mismatch(schema, instance) {
                    result.failures.append(failure(file, testCase, instance, reason: reason))
                } else {
                    result.passed += 1
                }
            }
        }
        return result
    }

    /// Why the engine's answers differ from the suite's, or nil when both paths agree with it.
    private static func mismatch(_ schema: JSONSchema, _ instance: Instance) -> String? {
        let fast = schema.isValid(instance.data)
        let output = schema.validate(instance.data)
        if fast == instance.valid && output.valid == instance.valid {
            // "basic" output says why an instance is invalid; an empty list is no answer.
            return output.valid || !output.errors.isEmpty ? nil : "expected invalid and validate says so, but with no error units"
        }
        let expected = instance.valid ? "valid" : "invalid"
        var reason: String
        if fast != output.valid {
            reason = "expected \(expected); isValid says \(fast ? "valid" : "invalid") but validate says \(output.valid ? "valid" : "invalid")"
        } else {
            reason = "expected \(expected), the engine says \(fast ? "valid" : "invalid")"
        }
        if !output.valid, let first = output.errors.first {
            reason += " (\(first.keywordLocation.isEmpty ? "#" : first.keywordLocation) at \(first.instanceLocation.isEmpty ? "/" : first.instanceLocation): \(first.error))"
        } else if !output.valid {
            reason += " (validate reported no error units)"
        }
        return reason
    }

    private static func failure(_ file: File, _ testCase: Case, _ instance: Instance, reason: String) -> ComplianceReport.Failure {
        ComplianceReport.Failure(
            file: file.path, caseDescription: testCase.description, testDescription: instance.description,
            reason: reason, data: JSONWriter().string(instance.data), expectedValid: instance.valid)
    }

    private static func parse(_ bytes: [UInt8], path: String) throws(JSONSchemaTestSuiteError) -> JSONNode {
        do throws(JSONParseError) {
            return try JSONParser().parse(bytes)
        } catch {
            throw .malformed(path, "\(error)")
        }
    }

    /// Checks the suite's file shape as it reads it, so a truncated or hand-edited file is an error
    /// naming the place rather than a silently smaller test count.
    static func parseCases(_ bytes: [UInt8], path: String) throws(JSONSchemaTestSuiteError) -> [Case] {
        let root = try parse(bytes, path: path)
        func place(_ node: JSONNode) -> String { "\(path):\(node.position.line):\(node.position.column)" }
        guard case .array(let caseNodes) = root.kind, !caseNodes.isEmpty else {
            throw .malformed(place(root), "expected a non-empty array of test cases")
        }
        var cases: [Case] = []
        for caseNode in caseNodes {
            guard case .string(let description)? = caseNode["description"]?.kind else {
                throw .malformed(place(caseNode), "a test case needs a \"description\" string")
            }
            guard let schema = caseNode["schema"] else { throw .malformed(place(caseNode), "a test case needs a \"schema\"") }
            switch schema.kind {
            case .object, .bool: break
            default: throw .malformed(place(schema), "a schema is an object or a boolean")
            }
            guard case .array(let testNodes)? = caseNode["tests"]?.kind, !testNodes.isEmpty else {
                throw .malformed(place(caseNode), "a test case needs a non-empty \"tests\" array")
            }
            var instances: [Instance] = []
            for testNode in testNodes {
                guard case .string(let testDescription)? = testNode["description"]?.kind,
                    let data = testNode["data"], case .bool(let valid)? = testNode["valid"]?.kind
                else {
                    throw .malformed(place(testNode), "a test needs \"description\" (a string), \"data\" and \"valid\" (a boolean)")
                }
                instances.append(Instance(description: testDescription, data: data.value, valid: valid))
            }
            cases.append(Case(description: description, schema: schema, instances: instances))
        }
        return cases
    }
}
