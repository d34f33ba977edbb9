import APICheckFindings
import APICheckJSON
import APICheckModel
import APICheckSpool

/// A place's counts as the JSON report writes and reads them (`checkCounts`).
extension CheckCount {
    func jsonValue(paths: RelPathTable) -> JSONValue {
        var members: [JSONMember] = []
        if let (via, step) = paths.members(of: place) {
            if let via { members.append(JSONMember("via", .number(String(via)))) }
            members.append(JSONMember("step", .string(step)))
        }
        members.append(JSONMember("method", .string(method)))
        if firstIndex > 0 { members.append(JSONMember("index", .number(String(firstIndex)))) }
        for (key, value) in [("passed", passed), ("failed", failed), ("notChecked", notChecked), ("skipped", skipped)] {
            members.append(JSONMember(key, .number(String(value))))
        }
        if !reasons.isEmpty {
            members.append(JSONMember("reasons", .array(reasons.map { reason in
                .object([
                    JSONMember("outcome", .string(reason.outcome)), JSONMember("reason", .string(reason.reason)),
                    JSONMember("count", .number(String(reason.count))),
                ])
            })))
        }
        return .object(members)
    }

    init(_ node: JSONNode, reader: ReportJSONReader, paths: RelPathResolver) throws(ReportDecodingError) {
        let object = try reader.object(node, "a check count")
        self.init(place: try paths.relPath(of: object, reader: reader), method: try reader.string(object, "method"))
        passed = try reader.count(object, "passed")
        failed = try reader.count(object, "failed")
        notChecked = try reader.count(object, "notChecked")
        skipped = try reader.count(object, "skipped")
        if let indexNode = object["index"] { firstIndex = try reader.countValue(indexNode, "index") }
        for reasonNode in try reader.optionalArray(object, "reasons") {
            let reasonObject = try reader.object(reasonNode, "a reason")
            let outcomeNode = try reader.member(reasonObject, "outcome")
            let outcome = try reader.stringValue(outcomeNode, "outcome")
            guard outcome == "notChecked" || outcome == "skipped" else {
                throw reader.error("expected notChecked or skipped for \"outcome\"", at: outcomeNode.position)
            }
            countReason(outcome, try reader.string(reasonObject, "reason"), try reader.count(reasonObject, "count"))
        }
    }
}
