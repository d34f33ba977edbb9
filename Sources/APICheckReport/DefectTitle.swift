/// A defect's title: the problem and its fix, each fact once.
enum DefectTitle {
    static func title(for finding: Finding, count: Int = 1) -> String {
        switch finding.rule {
        case .typeMatches:
            guard let declared = finding.declaredType, let served = finding.servedType, finding.message.hasPrefix("declared ") else {
                return finding.messageWithEvidence
            }
            return "declared \(declared), served \(served): serve the declared type, or declare the one served"
                + (finding.message.contains("profile") ? " (\(finding.message.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""))" : "")
        case .linkResolves:
            guard let rel = finding.rel, let actual = finding.actual, finding.expected == "a 2xx response" else { return finding.messageWithEvidence }
            let answer = actual.first?.isNumber == true ? "answer \(actual)" : "fail (\(actual))"
            return "\(finding.method) \(rel) links \(answer): the target must answer 2xx"
        case .methodValid where finding.expected?.hasPrefix("a stub answering ") == true:
            // The near-miss report stays in the finding's message (JSON, --verbose).
            let request = finding.expected.map { String($0.dropFirst("a stub answering ".count)) } ?? ""
            return "no stub answers \(request)\(finding.rel.map { " (the \($0) link)" } ?? ""): add one, or fix the link"
        case .contentTypePresent:
            return "\(finding.messageWithEvidence): send a Content-Type"
        case .bodySchema:
            // The field with indices as *, what is wrong, and which schema keyword says so.
            let field = BodySchemaPointer.shape(finding.sourcePointer ?? "")
            let problem = finding.actual ?? finding.message
            return "\(field.isEmpty ? "the body" : "the body's " + field): \(problem) (\(finding.expected ?? "its profile")): fix the body, or the profile"
        case .methodValid, .typeSyntax, .selfConsistent, .duplicateRel, .formatShape, .templateValid, .crawlLimit,
            .driftStatus, .driftType, .driftLinks, .driftShape, .driftHeader:
            return finding.messageWithEvidence
        case .driftCoverage:
            return "\(finding.message): record it (apicheck crawl --record) or write a stub"
        }
    }
}
