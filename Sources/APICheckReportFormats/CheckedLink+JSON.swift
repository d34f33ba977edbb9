import APICheckFindings
import APICheckJSON
import APICheckModel
import APICheckSpool

/// A check as the JSON report writes and reads it.
extension CheckedLink {
    /// What ``JSONWriter`` in `.pretty` style writes for ``jsonValue`` at `indent`, byte for
    /// byte (a test holds the two together), without building the value. `path`: the check's
    /// `via` and `step` in the report's `paths` table.
    package func writePrettyJSON(indent: Int, path: (via: Int32?, step: String)?, into output: inout String) {
        let inner = "\n" + String(repeating: "  ", count: indent + 1)
        func key(_ name: String) {
            output += inner
            output += "\""
            output += name
            output += "\": "
        }
        func string(_ name: String, _ value: String, last: Bool = false) {
            key(name)
            JSONWriter.writeString(value, into: &output)
            if !last { output += "," }
        }
        output += "{"
        string("method", method)
        string("url", url)
        if let rel { string("rel", rel) }
        if let (via, step) = path {
            if let via {
                key("via")
                output += String(via)
                output += ","
            }
            string("step", step)
        }
        if let referrer { string("referrer", referrer) }
        if let sourcePointer { string("sourcePointer", sourcePointer) }
        if discoveryIndex > 0 {
            key("index")
            output += String(discoveryIndex)
            output += ","
        }
        let reason = outcome.reason
        string("outcome", outcome.name, last: reason == nil && statusCode == nil && duration == nil)
        if let reason { string("reason", reason, last: statusCode == nil && duration == nil) }
        if let statusCode {
            key("statusCode")
            output += String(statusCode)
            if duration != nil { output += "," }
        }
        if let duration {
            key("durationSeconds")
            output += ReportTime.secondsText(duration)
        }
        output += "\n" + String(repeating: "  ", count: indent) + "}"
    }

    package func jsonValue(path: (via: Int32?, step: String)?) -> JSONValue {
        var members = [JSONMember("method", .string(method)), JSONMember("url", .string(url))]
        if let rel { members.append(JSONMember("rel", .string(rel))) }
        if let (via, step) = path {
            if let via { members.append(JSONMember("via", .number(String(via)))) }
            members.append(JSONMember("step", .string(step)))
        }
        if let referrer { members.append(JSONMember("referrer", .string(referrer))) }
        if let sourcePointer { members.append(JSONMember("sourcePointer", .string(sourcePointer))) }
        if discoveryIndex > 0 { members.append(JSONMember("index", .number(String(discoveryIndex)))) }
        members.append(JSONMember("outcome", .string(outcome.name)))
        if let reason = outcome.reason { members.append(JSONMember("reason", .string(reason))) }
        if let statusCode { members.append(JSONMember("statusCode", .number(String(statusCode)))) }
        if let duration { members.append(JSONMember("durationSeconds", .number(ReportTime.secondsText(duration)))) }
        return .object(members)
    }

    package init(_ node: JSONNode, reader: ReportJSONReader, paths: RelPathResolver) throws(ReportDecodingError) {
        let object = try reader.object(node, "a check")
        let outcomeNode = try reader.member(object, "outcome")
        let outcome: Outcome
        switch try reader.stringValue(outcomeNode, "outcome") {
        case "passed": outcome = .passed
        case "failed": outcome = .failed
        case "notChecked": outcome = .notChecked(reason: try reader.optionalString(object, "reason") ?? "")
        case "skipped": outcome = .skipped(reason: try reader.optionalString(object, "reason") ?? "")
        default: throw reader.error("expected passed, failed, notChecked or skipped for \"outcome\"", at: outcomeNode.position)
        }
        var statusCode: Int?
        if let statusNode = object["statusCode"], !statusNode.isNull {
            let value = try reader.countValue(statusNode, "statusCode")
            guard value <= 999 else { throw reader.error("expected an HTTP status code for \"statusCode\"", at: statusNode.position) }
            statusCode = value
        }
        self.init(
            method: try reader.string(object, "method"), url: try reader.string(object, "url"),
            rel: try reader.optionalString(object, "rel"), relPath: try paths.relPath(of: object, reader: reader),
            referrer: try reader.optionalString(object, "referrer"), sourcePointer: try reader.optionalString(object, "sourcePointer"),
            outcome: outcome, statusCode: statusCode, duration: try reader.optionalDuration(object, "durationSeconds"),
            discoveryIndex: try object["index"].map { node throws(ReportDecodingError) in try reader.countValue(node, "index") } ?? 0)
    }
}
