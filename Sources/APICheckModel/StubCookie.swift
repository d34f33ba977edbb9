import Foundation

/// A cookie a stub sets; consumers send it as one `Set-Cookie` header.
public struct StubCookie: Sendable, Hashable {
    public enum SameSite: String, Sendable, Hashable, CaseIterable {
        case strict = "Strict", lax = "Lax", none = "None"
    }

    public var name: String
    public var value: String
    public var path: String?
    public var domain: String?
    public var secure: Bool
    public var httpOnly: Bool
    public var expires: Date?
    public var maxAge: Int?
    public var sameSite: SameSite?

    public init(
        name: String, value: String, path: String? = nil, domain: String? = nil, secure: Bool = false,
        httpOnly: Bool = false, expires: Date? = nil, maxAge: Int? = nil, sameSite: SameSite? = nil
    ) {
        self.name = name
        self.value = value
        self.path = path
        self.domain = domain
        self.secure = secure
        self.httpOnly = httpOnly
        self.expires = expires
        self.maxAge = maxAge
        self.sameSite = sameSite
    }

    /// The value of a `Set-Cookie` header for this cookie (RFC 6265 §4.1).
    public var setCookieValue: String {
        var parts = ["\(name)=\(value)"]
        if let expires { parts.append("Expires=\(HTTPDate.rfc1123(expires))") }
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        if let domain { parts.append("Domain=\(domain)") }
        if let path { parts.append("Path=\(path)") }
        if secure { parts.append("Secure") }
        if httpOnly { parts.append("HttpOnly") }
        if let sameSite { parts.append("SameSite=\(sameSite.rawValue)") }
        return parts.joined(separator: "; ")
    }
}

/// The date formats cookies and HTTP use, by plain arithmetic on the proleptic Gregorian
/// calendar in GMT: no `DateFormatter` (not `Sendable`, locale-dependent) and no `Calendar` (slow).
public enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday

    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func rfc1123(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = Int64((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civilDate(fromDays: days)
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    /// Parses the cookie form PEWire-Control used (`Sat, 16-Nov-2013 15:00:00 GMT`) and RFC 1123
    /// (`Sat, 16 Nov 2013 15:00:00 GMT`). The weekday is optional and not checked; two-digit years
    /// follow RFC 6265 (70-99 → 19xx, 00-69 → 20xx); the zone, when given, must be GMT or UTC.
    public static func parse(_ text: String) -> Date? {
        var rest = Substring(text)
        if let comma = rest.firstIndex(of: ",") { rest = rest[rest.index(after: comma)...] }
        let fields = rest.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "\t" })
        guard fields.count == 5 || fields.count == 4 else { return nil }
        guard let day = Int(fields[0]), (1...31).contains(day),
            let monthIndex = months.firstIndex(where: { $0.caseInsensitiveEquals(String(fields[1])) }),
            var year = Int(fields[2]), year >= 0
        else { return nil }
        if fields[2].count <= 2 { year += year < 70 ? 2000 : 1900 }
        // RFC 6265 §5.1.1 years start at 1601; beyond 9999 nobody means it (and the arithmetic below stays small).
        guard (1601...9999).contains(year) else { return nil }
        let time = fields[3].split(separator: ":")
        guard time.count == 3, let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        if fields.count == 5 {
            let zone = String(fields[4])
            guard zone.caseInsensitiveEquals("GMT") || zone.caseInsensitiveEquals("UTC") else { return nil }
        }
        guard day <= daysIn(month: monthIndex + 1, year: year) else { return nil }
        let days = daysFromCivil(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + Int64(hour * 3600 + minute * 60 + second)))
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = Int64((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of ``daysFromCivil(year:month:day:)``.
    package static func civilDate(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }
}
