import APICheckFindings
import APICheckJSON
import APICheckModel

/// Baseline files read back: errors carry `path:line:column`.
extension Baseline {
    /// Reads a baseline file; errors carry `path:line:column`.
    public init(decoding bytes: [UInt8], path: String? = nil, maximumBytes: Int = 64 << 20) throws(ReportDecodingError) {
        let reader = ReportJSONReader(path: path)
        let root = try reader.object(try reader.parse(bytes, maximumBytes: maximumBytes), "the baseline")
        let versionNode = try reader.member(root, "schemaVersion")
        let version = try reader.countValue(versionNode, "schemaVersion")
        guard version == Self.currentSchemaVersion else {
            throw reader.error(
                "unsupported baseline schemaVersion \(version); this apicheck reads version \(Self.currentSchemaVersion)",
                at: versionNode.position)
        }
        var entries: [Entry] = []
        for node in try reader.array(root, "entries") {
            entries.append(try Entry(node, reader: reader))
        }
        self.init(entries: entries)
    }
}

extension Baseline.Entry {
    init(_ node: JSONNode, reader: ReportJSONReader) throws(ReportDecodingError) {
        let object = try reader.object(node, "a baseline entry")
        let fingerprintNode = try reader.member(object, "fingerprint")
        let fingerprint = try reader.stringValue(fingerprintNode, "fingerprint")
        guard fingerprint.utf8.count == 16, fingerprint.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
            throw reader.error("a fingerprint is 16 lower-case hex digits", at: fingerprintNode.position)
        }
        self.init(
            fingerprint: fingerprint,
            rule: try reader.rule(object, "rule"),
            method: try reader.string(object, "method"),
            url: try reader.string(object, "url"),
            rel: try reader.optionalString(object, "rel"),
            sourcePointer: try reader.optionalString(object, "sourcePointer"),
            defect: try reader.optionalString(object, "defect"))
    }
}
