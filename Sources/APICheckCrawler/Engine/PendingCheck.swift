import APICheckModel
import APICheckReport
import Foundation

/// A link as found, checked as far as it can be before its target's answer is known.
///
/// Everything that depends only on the link itself (its href, template, method token, declared
/// type) is decided when the link is found; what depends on the target's answer (status, served
/// type) is decided when the report is written, from the target's ``ResourceSummary``. Pending
/// checks go through a ``SortedSpool`` in report order, so a crawl holds none of them in memory
/// beyond one run. A class: a run is sorted by moving references, not copying records.
final class PendingCheck: SortableSpoolRecord, Equatable {
    /// The check, redacted, with the outcome decided so far.
    let check: CheckedLink
    /// Whether a finding was already reported for it (the outcome is then `failed`).
    let hasFindings: Bool
    /// The declared media type, compared with what the target serves.
    let declaredType: String?
    /// The link format's display name, for findings.
    let format: String
    let awaiting: Awaiting

    static func == (lhs: PendingCheck, rhs: PendingCheck) -> Bool {
        lhs === rhs
            || (lhs.check == rhs.check && lhs.hasFindings == rhs.hasFindings && lhs.declaredType == rhs.declaredType && lhs.format == rhs.format
                && lhs.awaiting == rhs.awaiting)
    }

    enum Awaiting: Equatable {
        /// Decided already.
        case nothing
        /// A GET or HEAD link: the target's answer decides. `credentialed`: the crawl sends
        /// credentials to its origin.
        case target(URLKey, credentialed: Bool)
        /// An unsafe method: the method check in `slot` decides; `path` is the target's path.
        case method(slot: Int, path: String)
    }

    /// Report order on what is known before the outcome: URL, method, rel, source pointer,
    /// referrer, then rel path. Checks equal in all but outcome are re-sorted after evaluation.
    static func precedes(_ lhs: PendingCheck, _ rhs: PendingCheck) -> Bool {
        let (left, right) = (lhs.check, rhs.check)
        if left.url != right.url { return left.url < right.url }
        if left.method != right.method { return left.method < right.method }
        if left.rel != right.rel { return ascending(left.rel, right.rel) }
        if left.sourcePointer != right.sourcePointer { return ascending(left.sourcePointer, right.sourcePointer) }
        if left.referrer != right.referrer { return ascending(left.referrer, right.referrer) }
        if left.relPath != right.relPath { return left.relPath.lexicographicallyPrecedes(right.relPath) }
        return CheckedLink.precedes(left, right)
    }

    /// Whether the two are ordered only by what evaluation decides.
    func tiesBeforeEvaluation(with other: PendingCheck) -> Bool {
        check.url == other.check.url && check.method == other.check.method && check.rel == other.check.rel
            && check.sourcePointer == other.check.sourcePointer && check.referrer == other.check.referrer
    }

    func encode(into encoder: inout SpoolEncoder) {
        check.encode(into: &encoder)
        encoder.bool(hasFindings)
        encoder.optionalString(declaredType)
        encoder.string(format)
        switch awaiting {
        case .nothing:
            encoder.unsigned(0)
        case .target(let key, let credentialed):
            encoder.unsigned(credentialed ? 2 : 1)
            encoder.unsigned(key.high)
            encoder.unsigned(key.low)
        case .method(let slot, let path):
            encoder.unsigned(3)
            encoder.int(slot)
            encoder.string(path)
        }
    }

    init(from decoder: inout SpoolDecoder) throws(SpoolDecodingError) {
        check = try CheckedLink(from: &decoder)
        hasFindings = try decoder.bool()
        declaredType = try decoder.optionalString()
        format = try decoder.string()
        switch try decoder.unsigned() {
        case 0: awaiting = .nothing
        case let kind where kind == 1 || kind == 2:
            let high = try decoder.unsigned()
            awaiting = .target(URLKey(high: high, low: try decoder.unsigned()), credentialed: kind == 2)
        case 3:
            let slot = try decoder.int()
            awaiting = .method(slot: slot, path: try decoder.string())
        default: throw SpoolDecodingError()
        }
    }

    init(check: CheckedLink, hasFindings: Bool, declaredType: String?, format: String, awaiting: Awaiting) {
        self.check = check
        self.hasFindings = hasFindings
        self.declaredType = declaredType
        self.format = format
        self.awaiting = awaiting
    }
}
