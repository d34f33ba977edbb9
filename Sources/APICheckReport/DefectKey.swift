/// A body's JSON pointer with array indices as `*` (`/movies/3/year` → `/movies/*/year`), so
/// that one field wrong in every element is one defect.
enum BodySchemaPointer {
    static func shape(_ pointer: String) -> String {
        guard pointer.contains(where: \.isNumber) else { return pointer }
        return pointer.split(separator: "/", omittingEmptySubsequences: false).map { step in
            !step.isEmpty && step.allSatisfy({ $0.isASCII && $0.isNumber }) ? "*" : String(step)
        }.joined(separator: "/")
    }
}

/// What makes findings one defect.
struct DefectKey: Hashable {
    var rule: RuleID
    var problem: String
    var place: String

    init(_ finding: Finding) {
        rule = finding.rule
        switch finding.rule {
        case .typeSyntax:
            let side = finding.declaredType == finding.actual ? "declared" : "served"
            problem = "\(side) \(finding.actual ?? "")"
            place = ""
        case .typeMatches:
            problem = "\(finding.declaredType ?? finding.expected ?? "") | \(finding.servedType ?? "") | \(MessageTemplate.of(finding.message))"
            place = ""
        case .formatShape:
            problem = "\(finding.format ?? "") | \(MessageTemplate.of(finding.message))"
            place = ""
        case .bodySchema:
            // One defect per schema keyword, body field (indices as *) and place in the API: a wrong
            // field in every movie is one defect, whatever the values.
            problem = "\(finding.expected ?? "") | \(BodySchemaPointer.shape(finding.sourcePointer ?? ""))"
            place = RelPath.shape(finding.relPath)
        case .crawlLimit:
            // One defect per limit, however many responses it cut short.
            problem = MessageTemplate.of(finding.message)
            place = ""
        case .linkResolves:
            // A status stays as it is (404 and 500 are different problems); a failure's wording is templated.
            let actual = finding.actual.map { $0.allSatisfy(\.isNumber) ? $0 : MessageTemplate.of($0) } ?? ""
            problem = "\(finding.method) | \(actual) | \(MessageTemplate.of(finding.message))"
            place = "rel " + (finding.rel ?? "")
        case .methodValid, .templateValid:
            problem = "\(finding.method) | \(MessageTemplate.of(finding.message))"
            place = "rel " + (finding.rel ?? "")
        case .duplicateRel:
            problem = "rel " + (finding.rel ?? "")
            place = RelPath.shape(finding.relPath)
        case .contentTypePresent, .selfConsistent:
            problem = MessageTemplate.of(finding.message)
            place = RelPath.shape(finding.relPath)
        case .driftStatus, .driftType, .driftLinks, .driftShape, .driftHeader:
            // The message is the fact (the pointer, rel, statuses or types): templating it would
            // merge different drifts into one.
            problem = finding.message
            place = RelPath.shape(finding.relPath)
        case .driftCoverage:
            // One gap per kind of resource; the count in the message changes as the API grows.
            problem = "no stub"
            place = RelPath.shape(finding.relPath)
        }
    }

    var id: String {
        var input: [UInt8] = []
        for field in [rule.rawValue, problem, place] {
            input.append(contentsOf: Array(String(field.utf8.count).utf8))
            input.append(UInt8(ascii: ":"))
            input.append(contentsOf: Array(field.utf8))
        }
        return FNV1a.hexDigest(input)
    }
}
