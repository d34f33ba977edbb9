import APICheckFindings
import APICheckHypermedia
import APICheckSpool


extension ContractRules {
    /// The `body-schema` findings of an answer: one per violation of its profile, at the body's
    /// JSON pointer; none for a resource of another shard.
    func bodySchemaFindings(_ violations: [BodySchemaRule.Violation], profile: MediaTypeProfile, record: ResourceRecord) -> [Finding] {
        guard !violations.isEmpty, options.shard.map({ $0.contains(url: record.entry.normalisedKey) }) ?? true else { return [] }
        return violations.map { violation in
            let field = violation.instanceLocation.isEmpty ? "the body" : "the body at \(violation.instanceLocation)"
            return bodySchemaFinding(
                record, pointer: violation.instanceLocation.isEmpty ? nil : violation.instanceLocation, expected: violation.keyword, actual: violation.error,
                "\(field) does not match the profile of \(profile.key) (\(violation.keyword)): \(violation.error)")
        }
    }

    /// A profile the API names that cannot be used (not fetched, not valid): one finding.
    func bodySchemaProblem(_ reason: String, schema: String, record: ResourceRecord) -> [Finding] {
        guard options.shard.map({ $0.contains(url: record.entry.normalisedKey) }) ?? true else { return [] }
        return [bodySchemaFinding(record, pointer: nil, expected: schema, actual: reason, "the body's profile cannot be used: \(reason)")]
    }

    /// Found in the resource's own body: its pointer is into that body, so the finding's referrer
    /// is the resource itself (as for `format-shape`), and it names no rel.
    private func bodySchemaFinding(_ record: ResourceRecord, pointer: String?, expected: String, actual: String, _ message: String) -> Finding {
        let url = record.finalURL?.absoluteString ?? record.entry.url
        return Finding(
            rule: .bodySchema, method: "GET", url: url, declaredType: record.entry.declaredType, servedType: record.contentType,
            sourcePointer: pointer, referrer: url, expected: expected, actual: actual, message: message)
    }
}
