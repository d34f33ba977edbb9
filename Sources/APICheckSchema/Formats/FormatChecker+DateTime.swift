// RFC 3339 section 5.6 (date-time, full-date, full-time) and appendix A (duration).

extension FormatChecker {
    private static let dash = UInt8(ascii: "-")
    private static let colon = UInt8(ascii: ":")

    /// `full-date "T" full-time`; `T` and `Z` may be lower case (RFC 3339 section 5.6, note).
    static func isDateTime(_ bytes: Bytes) -> Bool {
        bytes.count > 11 && isFullDate(bytes, 0) && bytes[10] | 0x20 == UInt8(ascii: "t") && isFullTime(bytes, 11)
    }

    /// `YYYY-MM-DD` with a day that exists in that month (29 February only in leap years).
    static func isDate(_ bytes: Bytes) -> Bool {
        bytes.count == 10 && isFullDate(bytes, 0)
    }

    /// `HH:MM:SS[.fraction](Z|±HH:MM)`.
    static func isTime(_ bytes: Bytes) -> Bool {
        isFullTime(bytes, 0)
    }

    private static func isFullDate(_ bytes: Bytes, _ start: Int) -> Bool {
        guard start + 10 <= bytes.count, let year = decimal(bytes, start, 4), bytes[start + 4] == dash,
            let month = decimal(bytes, start + 5, 2), bytes[start + 7] == dash,
            let day = decimal(bytes, start + 8, 2)
        else { return false }
        return (1...12).contains(month) && day >= 1 && day <= daysIn(month: month, year: year)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `partial-time time-offset` from `start` to the end of `bytes`.
    ///
    /// Second 60 (a leap second) is accepted only when the time, moved to UTC by its offset, is
    /// 23:59:60: leap seconds are inserted at the end of a UTC day, whatever the local clock says.
    private static func isFullTime(_ bytes: Bytes, _ start: Int) -> Bool {
        guard start + 8 <= bytes.count, let hour = decimal(bytes, start, 2), bytes[start + 2] == colon,
            let minute = decimal(bytes, start + 3, 2), bytes[start + 5] == colon,
            let second = decimal(bytes, start + 6, 2),
            hour <= 23, minute <= 59, second <= 60
        else { return false }
        var index = start + 8
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > fractionStart else { return false }
        }
        guard index < bytes.count else { return false }  // the offset is required
        var offsetMinutes = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return false }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, let offsetHour = decimal(bytes, index + 1, 2),
                bytes[index + 3] == colon, let offsetMinute = decimal(bytes, index + 4, 2),
                offsetHour <= 23, offsetMinute <= 59
            else { return false }
            offsetMinutes = offsetHour * 60 + offsetMinute
            if bytes[index] == UInt8(ascii: "-") { offsetMinutes = -offsetMinutes }
        default:
            return false
        }
        guard second == 60 else { return true }
        let minutesPerDay = 24 * 60
        let utcMinute = ((hour * 60 + minute - offsetMinutes) % minutesPerDay + minutesPerDay) % minutesPerDay
        return utcMinute == minutesPerDay - 1
    }

    /// An ISO 8601 duration exactly as RFC 3339 appendix A's ABNF has it: `P`, then a run of
    /// consecutive date units in the order years, months, days (`P1Y2M`, `P2M3D`, not `P1Y3D`),
    /// then optionally `T` and a run of consecutive time units hours, minutes, seconds (`PT1H2M`,
    /// not `PT1H2S`); or `P` weeks `W` alone. At least one element, and one after `T`.
    /// Designators are upper case and numbers whole digits: no fractions, signs or exponents.
    /// (The newer test suite checks exactly this reading; ISO 8601 itself is laxer.)
    static func isDuration(_ bytes: Bytes) -> Bool {
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "P") else { return false }
        var index = 1
        var inTime = false
        var lastRank = 0
        var sawElement = false
        var sawTimeElement = false
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "T") {
                guard !inTime else { return false }
                inTime = true
                lastRank = 0
                index += 1
                continue
            }
            let numberStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > numberStart, index < bytes.count else { return false }
            let rank: Int
            switch (bytes[index], inTime) {
            case (UInt8(ascii: "Y"), false): rank = 1
            case (UInt8(ascii: "M"), false): rank = 2
            case (UInt8(ascii: "D"), false): rank = 3
            case (UInt8(ascii: "H"), true): rank = 4
            case (UInt8(ascii: "M"), true): rank = 5
            case (UInt8(ascii: "S"), true): rank = 6
            case (UInt8(ascii: "W"), false):
                // Weeks stand alone: `P2W` and nothing more.
                return !sawElement && index + 1 == bytes.count
            default: return false
            }
            // The first unit of a part may be any; each later one must be the next in order.
            guard lastRank == 0 || rank == lastRank + 1 else { return false }
            lastRank = rank
            sawElement = true
            if inTime { sawTimeElement = true }
            index += 1
        }
        return sawElement && (!inTime || sawTimeElement)
    }
}
