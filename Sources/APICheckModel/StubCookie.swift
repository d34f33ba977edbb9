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

/// The date formats cookies and HTTP use. Parsing is strict and allocation-light; no `DateFormatter`
/// (not `Sendable`, and locale-dependent).
public enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func rfc1123(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = months[((parts.month ?? 1) - 1) % 12]
        return "\(weekday), \(two(parts.day)) \(month) \(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }

    /// Parses the cookie form PEWire-Control used (`Sat, 16-Nov-2013 15:00:00 GMT`) and RFC 1123
    /// (`Sat, 16 Nov 2013 15:00:00 GMT`). The weekday is optional and not checked; the zone must be GMT or UTC.
    public static func parse(_ text: String) -> Date? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if let comma = rest.firstIndex(of: ",") { rest = rest[rest.index(after: comma)...] }
        let fields = rest.split(whereSeparator: { $0 == " " || $0 == "-" })
        guard fields.count == 5 || fields.count == 4 else { return nil }
        guard let day = Int(fields[0]), (1...31).contains(day),
            let monthIndex = months.firstIndex(where: { $0.caseInsensitiveEquals(String(fields[1])) }),
            var year = Int(fields[2])
        else { return nil }
        if year < 100 { year += year < 70 ? 2000 : 1900 }
        let time = fields[3].split(separator: ":")
        guard time.count == 3, let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        if fields.count == 5 {
            let zone = fields[4].uppercased()
            guard zone == "GMT" || zone == "UTC" || zone == "Z" else { return nil }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
        let components = DateComponents(year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == day
        else { return nil }
        return date
    }
}
