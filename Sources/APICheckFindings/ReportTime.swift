import APICheckModel
import APICheckSpool
import Foundation

/// Times in reports: kept to the millisecond, written as ISO 8601 UTC (`2025-03-01T12:00:00.250Z`)
/// and durations as decimal seconds (`1.234`). Plain arithmetic, no formatters: the output must
/// not depend on the machine's locale or time zone.
package enum ReportTime {
    /// Whole milliseconds since 1970 (rounded), clamped far beyond any real date.
    package static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite else { return 0 }
        return Int64(min(max(value, -1e16), 1e16))
    }

    /// `date` rounded to the millisecond, as reports keep it.
    package static func rounded(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds(date)) / 1000)
    }

    /// Whole milliseconds in `duration` (rounded, negative as zero, clamped to about 300 years).
    package static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let clamped = min(seconds, 10_000_000_000)
        return clamped * 1000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
    }

    /// `duration` rounded to the millisecond, as reports keep it.
    package static func rounded(_ duration: Duration) -> Duration {
        .milliseconds(milliseconds(duration))
    }

    /// `1.234`: seconds with exactly three decimals.
    package static func secondsText(_ duration: Duration) -> String {
        let total = milliseconds(duration)
        let fraction = String(total % 1000)
        return "\(total / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// A duration from a JSON number of seconds; `nil` when negative, not finite or absurdly long.
    package static func duration(seconds lexeme: String) -> Duration? {
        guard let seconds = Double(lexeme), seconds.isFinite, seconds >= 0, seconds < 1e10 else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// `2025-03-01T12:00:00.250Z`.
    package static func iso8601(_ date: Date) -> String { ISO8601Time.string(date) }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, the RFC 3339 profile of ISO 8601.
    package static func parseISO8601(_ text: String) -> Date? { ISO8601Time.date(parsing: text) }
}
