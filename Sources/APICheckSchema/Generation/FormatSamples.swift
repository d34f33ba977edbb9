/// Values for the `format`s the engine checks, drawn so that mock bodies look real (dates that
/// exist, hosts with labels, UUIDs with the right variant) and stay valid when format assertion
/// is on.
enum FormatSamples {
    static func known(_ format: String) -> Bool {
        sampleKinds.contains(format)
    }

    private static let sampleKinds: Set<String> = [
        "date-time", "date", "time", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6", "uri", "iri",
        "uri-reference", "iri-reference", "uri-template", "uuid", "duration", "json-pointer", "relative-json-pointer", "regex",
    ]

    private static let words = ["alpha", "bravo", "delta", "echo", "kilo", "lima", "nova", "orbit", "pixel", "quartz", "river", "sierra"]
    private static let tlds = ["com", "org", "net", "io", "dev"]
    private static let hex = Array("0123456789abcdef")

    static func sample(_ format: String, _ random: inout GeneratorRandom) -> String? {
        switch format {
        case "date-time": return date(&random) + "T" + time(&random)
        case "date": return date(&random)
        case "time": return time(&random)
        case "email", "idn-email": return word(&random) + (random.chance(1, in: 2) ? "." + word(&random) : "") + "@" + hostname(&random)
        case "hostname", "idn-hostname": return hostname(&random)
        case "ipv4": return (0..<4).map { _ in String(random.int(in: 0...255)) }.joined(separator: ".")
        case "ipv6": return ipv6(&random)
        case "uri", "iri": return "https://" + hostname(&random) + "/" + word(&random) + (random.chance(1, in: 3) ? "?q=" + word(&random) : "")
        case "uri-reference", "iri-reference":
            return random.chance(1, in: 2) ? "/" + word(&random) + "/" + String(random.int(in: 1...999)) : "https://" + hostname(&random) + "/" + word(&random)
        case "uri-template": return "https://" + hostname(&random) + "/" + word(&random) + "/{id}"
        case "uuid": return uuid(&random)
        case "duration": return duration(&random)
        case "json-pointer": return random.chance(1, in: 6) ? "" : "/" + word(&random) + "/" + String(random.int(in: 0...9))
        case "relative-json-pointer": return String(random.int(in: 0...3)) + (random.chance(1, in: 2) ? "#" : "/" + word(&random))
        case "regex": return "^" + word(&random) + "[0-9]*$"
        default: return nil
        }
    }

    /// A string that fails `format` (for violating it): each is wrong the way real data is wrong.
    static func invalid(_ format: String, minLength: Int, maxLength: Int, _ random: inout GeneratorRandom) -> String? {
        let choices: [String]
        switch format {
        case "date-time": choices = ["2024-13-01T10:00:00Z", "2024-02-30 10:00", "yesterday", "2024-01-01T25:00:00Z"]
        case "date": choices = ["2024-13-01", "2024-02-30", "01/02/2024", "today"]
        case "time": choices = ["25:00:00Z", "12:60:00Z", "noon", "12:00:00+25:00"]
        case "email", "idn-email": choices = ["no-at-sign", "two@@example.com", "@example.com", "user@"]
        case "hostname", "idn-hostname": choices = ["-leading.example", "under_score.example", "a..b", "space here"]
        case "ipv4": choices = ["256.1.1.1", "1.2.3", "1.2.3.4.5", "a.b.c.d"]
        case "ipv6": choices = ["1:2:3:4:5:6:7:8:9", "12345::", ":::", "g::1"]
        case "uri", "iri": choices = ["//no-scheme", "relative/path", "http://exa mple.com", "\\\\share"]
        case "uri-reference", "iri-reference": choices = ["\\\\WINDOWS\\path", "http://exa mple.com", "#frag#ment"]
        case "uri-template": choices = ["https://example.com/{id", "https://example.com/}x{"]
        case "uuid": choices = ["not-a-uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638", "2eb8aa08aa9811eab4aa73b441d16380x"]
        case "duration": choices = ["P", "PT", "1D", "P1H", "P2D1Y"]
        case "json-pointer": choices = ["no-slash", "/bad~2escape", "#/fragment"]
        case "relative-json-pointer": choices = ["/absolute", "-1/x", "01"]
        case "regex": choices = ["[unclosed", "(unbalanced", "*start"]
        default: return nil
        }
        let fitting = choices.filter { $0.unicodeScalars.count >= minLength && $0.unicodeScalars.count <= maxLength }
        return random.pick(fitting)
    }

    private static func word(_ random: inout GeneratorRandom) -> String { random.pick(words) ?? "alpha" }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func date(_ random: inout GeneratorRandom) -> String {
        let year = random.int(in: 1970...2035)
        let month = random.int(in: 1...12)
        let days = [31, year % 4 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return "\(year)-\(two(month))-\(two(random.int(in: 1...days)))"
    }

    private static func time(_ random: inout GeneratorRandom) -> String {
        var text = "\(two(random.int(in: 0...23))):\(two(random.int(in: 0...59))):\(two(random.int(in: 0...59)))"
        if random.chance(1, in: 4) { text += "." + String(random.int(in: 100...999)) }
        if random.chance(2, in: 3) { return text + "Z" }
        return text + (random.chance(1, in: 2) ? "+" : "-") + two(random.int(in: 0...14)) + ":" + (random.pick(["00", "30", "45"]) ?? "00")
    }

    private static func hostname(_ random: inout GeneratorRandom) -> String {
        (random.chance(1, in: 2) ? word(&random) + "." : "") + word(&random) + "." + (random.pick(tlds) ?? "com")
    }

    private static func hexDigits(_ count: Int, _ random: inout GeneratorRandom) -> String {
        String((0..<count).map { _ in hex[random.int(in: 0...15)] })
    }

    private static func uuid(_ random: inout GeneratorRandom) -> String {
        let variant = String(hex[random.int(in: 8...11)])
        return hexDigits(8, &random) + "-" + hexDigits(4, &random) + "-4" + hexDigits(3, &random) + "-" + variant + hexDigits(3, &random) + "-" + hexDigits(12, &random)
    }

    private static func ipv6(_ random: inout GeneratorRandom) -> String {
        let groups = (0..<8).map { _ in String(random.int(in: 0...0xFFFF), radix: 16) }
        if random.chance(1, in: 2) { return groups.joined(separator: ":") }
        return groups[0] + "::" + groups[7]
    }

    private static func duration(_ random: inout GeneratorRandom) -> String {
        switch random.int(in: 0...3) {
        case 0: return "P\(random.int(in: 1...52))W"
        case 1: return "P\(random.int(in: 1...30))D"
        case 2: return "PT\(random.int(in: 1...23))H\(random.int(in: 1...59))M"
        default: return "P\(random.int(in: 1...5))Y\(random.int(in: 1...11))M\(random.int(in: 1...28))DT\(random.int(in: 1...23))H"
        }
    }
}
