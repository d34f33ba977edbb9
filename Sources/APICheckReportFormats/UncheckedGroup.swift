import APICheckFindings
import APICheckModel
import APICheckSpool

/// Links not checked or skipped for the same reason, listed once with examples.
struct UncheckedGroup {
    var reason: String
    var checks: [CheckedLink]

    /// The distinct `METHOD url`s of the group, in order (several links may name one target).
    var targets: [String] {
        var seen = Set<String>()
        return checks.map { "\($0.method) \($0.url)" }.filter { seen.insert($0).inserted }
    }

    static func groups(of checks: [CheckedLink]) -> [UncheckedGroup] {
        var order: [String] = []
        var byReason: [String: [CheckedLink]] = [:]
        for check in checks {
            let reason = check.outcome.reason ?? ""
            if byReason[reason] == nil { order.append(reason) }
            byReason[reason, default: []].append(check)
        }
        return order.map { UncheckedGroup(reason: $0, checks: byReason[$0] ?? []) }
    }
}
