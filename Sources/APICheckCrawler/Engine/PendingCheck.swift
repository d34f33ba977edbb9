import APICheckFindings
import APICheckHypermedia
import APICheckModel
import APICheckSpool
import Foundation

/// A link as found, checked as far as it can be before its target's answer is known.
///
/// Everything that depends only on the link itself (its href, template, method token, declared
/// type) is decided when the link is found; what depends on the target's answer (status, served
/// type) is decided at the end of the crawl, from the target's ``ResourceSummary``. Pending
/// checks wait in a ``SpillQueue`` in discovery order (the order the report lists them), so a
/// crawl holds at most a run of them in memory and never sorts them.
struct PendingCheck: SpoolRecord, Equatable {
    /// The check, redacted, with the outcome decided so far.
    let check: CheckedLink
    /// Whether a finding was already reported for it (the outcome is then `failed`).
    let hasFindings: Bool
    /// The declared media type, compared with what the target serves.
    let declaredType: String?
    /// The link format's display name, for findings.
    let format: String
    let awaiting: Awaiting
    /// Where it is counted (``CheckPlaces``).
    var place: Int32 = CheckPlaces.root

    enum Awaiting: Equatable {
        /// Decided already.
        case nothing
        /// A GET or HEAD link: the target's answer decides. `credentialed`: the crawl sends
        /// credentials to its origin.
        case target(URLKey, credentialed: Bool)
        /// An unsafe method: the method check in `slot` decides; `path` is the target's path.
        case method(slot: Int, path: String)
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
        encoder.int(Int(place))
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
        place = Int32(clamping: try decoder.int())
    }

    init(check: CheckedLink, hasFindings: Bool, declaredType: String?, format: String, awaiting: Awaiting) {
        self.check = check
        self.hasFindings = hasFindings
        self.declaredType = declaredType
        self.format = format
        self.awaiting = awaiting
    }
}
