import APICheckModel
import APICheckSpool

extension CheckedLink: SpoolRecord {
    @usableFromInline package func encode(into encoder: inout SpoolEncoder) {
        encoder.string(method)
        encoder.string(url)
        encoder.optionalString(rel)
        encoder.strings(relPath.labels)
        encoder.optionalString(referrer)
        encoder.optionalString(sourcePointer)
        switch outcome {
        case .passed: encoder.unsigned(0)
        case .failed: encoder.unsigned(1)
        case .notChecked(let reason):
            encoder.unsigned(2)
            encoder.string(reason)
        case .skipped(let reason):
            encoder.unsigned(3)
            encoder.string(reason)
        }
        encoder.optionalInt(statusCode)
        encoder.bool(duration != nil)
        if let duration {
            encoder.int(Int(duration.components.seconds))
            encoder.int(Int(duration.components.attoseconds / 1_000_000_000))  // nanoseconds
        }
        encoder.int(discoveryIndex)
    }

    @usableFromInline package init(from decoder: inout SpoolDecoder) throws(SpoolDecodingError) {
        let method = try decoder.string()
        let url = try decoder.string()
        let rel = try decoder.optionalString()
        let relPath = RelPath(try decoder.strings())
        let referrer = try decoder.optionalString()
        let sourcePointer = try decoder.optionalString()
        let outcome: Outcome
        switch try decoder.unsigned() {
        case 0: outcome = .passed
        case 1: outcome = .failed
        case 2: outcome = .notChecked(reason: try decoder.string())
        case 3: outcome = .skipped(reason: try decoder.string())
        default: throw SpoolDecodingError()
        }
        let statusCode = try decoder.optionalInt()
        var duration: Duration?
        if try decoder.bool() {
            let seconds = try decoder.int()
            let nanoseconds = try decoder.int()
            duration = .seconds(seconds) + .nanoseconds(nanoseconds)
        }
        self.init(
            method: method, url: url, rel: rel, relPath: relPath, referrer: referrer, sourcePointer: sourcePointer, outcome: outcome,
            statusCode: statusCode, duration: duration, discoveryIndex: try decoder.int())
    }
}

extension CheckedLink {
    /// A spooled check's rel path labels alone, the rest of the record unread: the report's
    /// `paths` table needs only these, from every check (see ``CheckList/relPathLabels``).
    package struct RelPathLabels: SpoolReadable {
        package let labels: [String]

        package init(from decoder: inout SpoolDecoder) throws(SpoolDecodingError) {
            try decoder.skipString()  // method
            try decoder.skipString()  // url
            try decoder.skipOptionalString()  // rel
            labels = try decoder.strings()
        }
    }
}
