import APICheckFindings
import APICheckModel
import APICheckReportFormats
import APICheckSpool
import APICheckXML
import Testing

@Suite struct RedactionTests {
    let redaction = Redaction()

    @Test(arguments: [
        ("https://bob:hunter2@api.example.com/a", "https://api.example.com/a"),
        ("https://bob@api.example.com:8443/a", "https://api.example.com:8443/a"),
        ("https://api.example.com/a?token=abc&page=2", "https://api.example.com/a?token=REDACTED&page=2"),
        ("https://api.example.com/a?Access_Token=abc;API_KEY=x&key=&q=key", "https://api.example.com/a?Access_Token=REDACTED;API_KEY=REDACTED&key=REDACTED&q=key"),
        ("https://api.example.com/a?api%5Fkey=abc&pass%77ord=p&sig+nature=s", "https://api.example.com/a?api%5Fkey=REDACTED&pass%77ord=REDACTED&sig+nature=s"),
        ("https://api.example.com/cb#access_token=abc&state=1", "https://api.example.com/cb#access_token=REDACTED&state=1"),
        ("https://api.example.com/a?monkey=1&tokens=2&secret", "https://api.example.com/a?monkey=1&tokens=2&secret"),
        ("https://api.example.com/a#section", "https://api.example.com/a#section"),
        ("/relative?password=pw", "/relative?password=REDACTED"),
        ("https://a@b@host/x?signature=s", "https://host/x?signature=REDACTED"),
        ("not a url", "not a url"),
        ("", ""),
    ])
    func urls(input: String, expected: String) {
        #expect(redaction.url(input) == expected)
        #expect(redaction.url(redaction.url(input)) == expected)
    }

    @Test func headers() {
        #expect(redaction.headerValue("Bearer abc.def", name: "Authorization") == "Bearer REDACTED")
        #expect(redaction.headerValue("abc", name: "authorization") == "REDACTED")
        #expect(redaction.headerValue("session=1; other=2", name: "Cookie") == "REDACTED")
        #expect(redaction.headerValue("k", name: "X-API-Key") == "REDACTED")
        #expect(redaction.headerValue("application/hal+json", name: "Accept") == "application/hal+json")
        var custom = Redaction(sensitiveHeaderNames: ["X-Tenant-Secret"])
        #expect(custom.headerValue("t", name: "x-tenant-secret") == "REDACTED")
        custom.addSensitiveHeaderName("X-Other")
        #expect(
            custom.headers([HTTPHeader(name: "X-Other", value: "v"), HTTPHeader(name: "Accept", value: "*/*")])
                == [HTTPHeader(name: "X-Other", value: "REDACTED"), HTTPHeader(name: "Accept", value: "*/*")])
    }

    @Test func registeredHeaderValuesAreScrubbedFromText() {
        var redaction = Redaction()
        redaction.registerHeader(name: "Authorization", value: "Bearer s3cr3t-token")
        redaction.registerHeader(name: "Accept", value: "application/hal+json")
        #expect(redaction.text("server said: invalid token s3cr3t-token for Bearer s3cr3t-token") == "server said: invalid token REDACTED for REDACTED")
        #expect(redaction.text("expected application/hal+json") == "expected application/hal+json")
        #expect(redaction.url("https://h/?t=s3cr3t-token") == "https://h/?t=REDACTED")
        redaction.addSecret("ab")  // too short to search for in text
        #expect(redaction.text("about") == "about")
    }

    @Test func urlsInsideTextAreRedacted() {
        #expect(
            redaction.text("redirected to https://u:p@h/x?token=abc. Then (see http://h/y?key=k), done")
                == "redirected to https://h/x?token=REDACTED. Then (see http://h/y?key=REDACTED), done")
        #expect(redaction.text("\"https://h/?secret=1\"<https://u@h/>") == "\"https://h/?secret=REDACTED\"<https://h/>")
        #expect(redaction.text("no :// scheme, ://x, 1://y, a://b@c") == "no :// scheme, ://x, 1://y, a://c")
    }

    @Test func hostileInputIsLinear() {
        let big = String(repeating: "://a@", count: 50_000) + String(repeating: "?token=", count: 50_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            _ = redaction.text(big)
            _ = redaction.url(big)
        }
        #expect(elapsed < .seconds(5))
    }

    @Test func wholeReport() {
        let leaky = "https://bob:pw@api.example.com/movies?token=abc"
        let finding = Finding(
            rule: .linkResolves, url: leaky, rel: "movies", relPath: ["movies"], referrer: leaky, actual: "redirect to \(leaky)",
            message: "see \(leaky)")
        let check = CheckedLink(url: leaky, referrer: leaky, outcome: .skipped(reason: "other origin \(leaky)"))
        var report = SampleReports.report(findings: [finding], checks: [check], errors: [CrawlProblem(message: "down: \(leaky)", url: leaky)])
        report.root = leaky
        report = Baseline(findings: [Finding(rule: .linkResolves, url: leaky, message: "m")]).apply(to: report)
        let redacted = Redaction().report(report)
        for format in ReportFormat.allCases {
            let output = format.renderer().render(redacted)
            #expect(!output.contains("bob"), "\(format)")
            #expect(!output.contains("token=abc"), "\(format)")
            #expect(output.contains("token=REDACTED"), "\(format)")
        }
    }
}

@Suite struct EscapingTests {
    @Test func xml() {
        #expect(XMLText.escaped("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f")
        #expect(XMLText.escaped("\t\n\r") == "&#9;&#10;&#13;")
        #expect(XMLText.escaped("\u{0}\u{8}\u{B}\u{1F}\u{FFFE}\u{FFFF}") == "\\u{0}\\u{8}\\u{B}\\u{1F}\\u{FFFE}\\u{FFFF}")
        #expect(XMLText.escaped("é 🎬 \u{7F} \u{85} \u{FFFD}") == "é 🎬 \u{7F} \u{85} \u{FFFD}")
    }

    @Test func github() {
        #expect(Escaping.githubData("100% a:b, c\r\nd") == "100%25 a:b, c%0D%0Ad")
        #expect(Escaping.githubProperty("100% a:b, c\r\nd") == "100%25 a%3Ab%2C c%0D%0Ad")
        #expect(Escaping.githubData("%0A") == "%250A")
    }

    @Test func markdown() {
        #expect(Escaping.markdown("a|b") == "a\\|b")
        #expect(Escaping.markdown("x\r\ny\nz\rw") == "x<br>y<br>z<br>w")
        #expect(Escaping.markdown("<b>&</b>") == "&lt;b&gt;&amp;&lt;/b&gt;")
        #expect(Escaping.markdown("é 🎬") == "é 🎬")
    }

    @Test func terminal() {
        #expect(Escaping.visibleControlCharacters("a\u{1B}[31mb\n\u{202E}\u{2066}\u{9B}") == "a\\u{1B}[31mb\\n\\u{202E}\\u{2066}\\u{9B}")
        #expect(Escaping.visibleControlCharacters("plain é 🎬") == "plain é 🎬")
    }
}

@Suite struct URIReferenceTests {
    @Test func encodesOnlyWhatURIsCannotHold() {
        #expect(Escaping.uriReference("https://h/a?b=c&d=%2F#x") == "https://h/a?b=c&d=%2F#x")
        #expect(Escaping.uriReference("https://h/movies{?page}") == "https://h/movies%7B?page%7D")
        #expect(Escaping.uriReference("https://h/a b/é\"<>|\\^`\n") == "https://h/a%20b/%C3%A9%22%3C%3E%7C%5C%5E%60%0A")
        #expect(Escaping.uriReference("100%") == "100%25")
        #expect(Escaping.uriReference("%zz%4") == "%25zz%254")
    }
}
