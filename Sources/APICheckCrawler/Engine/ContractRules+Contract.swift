import APICheckFindings

extension ContractRules {
    /// The findings of an answer's contract violations (`--openapi`), about the resource itself
    /// (as `body-schema`'s are); none for a resource of another shard.
    func contractFindings(_ violations: [ContractViolation], record: ResourceRecord) -> [Finding] {
        guard !violations.isEmpty, options.shard.map({ $0.contains(url: record.entry.normalisedKey) }) ?? true else { return [] }
        let url = record.finalURL?.absoluteString ?? record.entry.url
        return violations.map { violation in
            Finding(
                rule: violation.rule, method: "GET", url: url, declaredType: record.entry.declaredType,
                servedType: record.contentType, sourcePointer: violation.pointer, referrer: url,
                expected: violation.expected, actual: violation.actual, message: violation.message)
        }
    }
}
