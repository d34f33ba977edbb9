import Foundation

/// ISO 8601 / RFC 3339 times in UTC, by plain arithmetic: the output never depends on the
/// machine's locale or time zone, and every module writes them the same way (reports, the admin
/// API's journal, recorded stubs).
public enum ISO8601Time {
    /// `2025-03-01T12:00:00.250Z` (milliseconds rounded), or `2025-03-01T12:00:00Z` without
    /// `fractionalSeconds` (the milliseconds dropped after rounding).
    public static func string(_ date: Date, fractionalSeconds: Bool = true) -> String {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        let milliseconds = value.isFinite ? Int64(min(max(value, -1e16), 1e16)) : 0
        let millisecondsPerDay: Int64 = 86_400_000
        let days = milliseconds >= 0 ? milliseconds / millisecondsPerDay : (milliseconds + 1) / millisecondsPerDay - 1
        let ofDay = milliseconds - days * millisecondsPerDay
        let (year, month, day) = HTTPDate.civilDate(fromDays: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let seconds = ofDay / 1000
        return pad(Int64(year), 4) + "-" + pad(Int64(month), 2) + "-" + pad(Int64(day), 2) + "T" + pad(seconds / 3600, 2) + ":"
            + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2) + (fractionalSeconds ? "." + pad(ofDay % 1000, 3) : "") + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, the RFC 3339 profile of ISO 8601.
    public static func date(parsing text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + width)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += width
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2), expect("Tt"),
            let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2),
            (1...12).contains(month), (1...HTTPDate.daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        var milliseconds = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                if digits < 3 { milliseconds = milliseconds * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        }
        var offsetMinutes = 0
        if expect("Zz") {
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = HTTPDate.daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return Date(timeIntervalSince1970: Double(seconds * 1000 + Int64(milliseconds)) / 1000)
    }
}
