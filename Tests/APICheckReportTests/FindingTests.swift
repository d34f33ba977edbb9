import APICheckSpool
import APICheckModel
@testable import APICheckFindings
@testable import APICheckReportFormats
import Testing

@Suite struct FindingTests {
    @Test func relPathReadsFromTheRoot() {
        #expect(SampleReports.brokenPoster.relPathDescription == "root → library → movies[3] → poster")
        #expect(Finding(rule: .linkResolves, url: "u", message: "m").relPathDescription == "root")
        #expect(RelPath.describe(["a"]) == "root → a")
    }

    /// Baselines written by one version must keep matching in the next: the algorithm is pinned.
    @Test func fingerprintIsPinned() {
        #expect(SampleReports.brokenPoster.fingerprint == "d78fc725aa0100e9")
        #expect(SampleReports.brokenPoster.fingerprint.utf8.count == 16)
    }

    @Test func fingerprintIgnoresSeverityWordingAndEvidence() {
        var other = SampleReports.brokenPoster
        other.severity = .warning
        other.message = "broken link"
        other.expected = nil
        other.actual = "500"
        other.relPath = ["elsewhere"]
        other.referrer = "https://api.example.com/other"
        other.format = "Siren"
        other.declaredType = nil
        other.servedType = "text/html"
        #expect(other.fingerprint == SampleReports.brokenPoster.fingerprint)
    }

    @Test func fingerprintNormalisesTheURLAndMethod() {
        var other = SampleReports.brokenPoster
        other.url = "HTTPS://API.Example.COM:443/movies/%33/poster#section"
        other.method = "get"
        #expect(other.fingerprint == SampleReports.brokenPoster.fingerprint)
    }

    @Test func fingerprintChangesWithIdentity() {
        let changes: [(String, (inout Finding) -> Void)] = [
            ("rule", { $0.rule = .typeMatches }),
            ("method", { $0.method = "HEAD" }),
            ("path", { $0.url = "https://api.example.com/movies/4/poster" }),
            ("port", { $0.url = "https://api.example.com:8443/movies/3/poster" }),
            ("query", { $0.url = "https://api.example.com/movies/3/poster?size=large" }),
            ("rel", { $0.rel = "thumbnail" }),
            ("no rel", { $0.rel = nil }),
            ("pointer", { $0.sourcePointer = "/_links/poster/0" }),
        ]
        for (name, change) in changes {
            var other = SampleReports.brokenPoster
            change(&other)
            #expect(other.fingerprint != SampleReports.brokenPoster.fingerprint, "\(name)")
        }
    }

    @Test func fingerprintFieldsCannotBleedIntoEachOther() {
        let a = Finding(rule: .linkResolves, url: "u", rel: "ab", sourcePointer: "c", message: "m")
        let b = Finding(rule: .linkResolves, url: "u", rel: "a", sourcePointer: "bc", message: "m")
        #expect(a.fingerprint != b.fingerprint)
    }

    @Test func orderIsURLMethodRulePointer() {
        let findings = [
            Finding(rule: .typeSyntax, url: "https://b/", sourcePointer: "/b", message: "m"),
            Finding(rule: .linkResolves, url: "https://b/", sourcePointer: "/b", message: "m"),
            Finding(rule: .linkResolves, url: "https://b/", sourcePointer: "/a", message: "m"),
            Finding(rule: .linkResolves, method: "DELETE", url: "https://b/", message: "m"),
            Finding(rule: .typeSyntax, url: "https://a/", message: "m"),
        ]
        let sorted = findings.sorted(by: Finding.precedes)
        #expect(sorted.map(\.url) == ["https://a/", "https://b/", "https://b/", "https://b/", "https://b/"])
        #expect(sorted[1].method == "DELETE")
        #expect(sorted[2...].map(\.rule) == [.linkResolves, .linkResolves, .typeSyntax])
        #expect(sorted[2...].map(\.sourcePointer) == ["/a", "/b", "/b"])
    }

    @Test func findingsMadeFromACheckBelongToIt() {
        let check = SampleReports.checks[2]
        let finding = check.finding(
            .linkResolves, declaredType: "image/jpeg", format: "HAL", expected: "2xx", actual: "404 Not Found",
            message: "the link does not resolve")
        #expect(finding == SampleReports.brokenPoster)
        #expect(finding.linkKey == check.linkKey)
        #expect(check.finding(.typeSyntax, message: "m").severity == .warning)
    }

    @Test func describedForPeople() {
        #expect(
            SampleReports.brokenPoster.plainLines == [
                "error[link-resolves] GET https://api.example.com/movies/3/poster — the link does not resolve (expected 2xx, saw 404 Not Found)",
                "path: root → library → movies[3] → poster",
                "link: rel poster at /_links/poster (HAL) on https://api.example.com/movies/3",
                "type: declared image/jpeg",
            ])
        #expect(Finding(rule: .linkResolves, url: "u", actual: "timeout", message: "m").messageWithEvidence == "m (saw timeout)")
        #expect(Finding(rule: .linkResolves, url: "u", expected: "2xx", message: "m").messageWithEvidence == "m (expected 2xx)")
        #expect(Finding(rule: .linkResolves, url: "u", message: "m").linkDescription == nil)
    }
}

/// Reports split and identify URLs with the model's URI types, as the crawler does.
@Suite struct ReportURLTests {
    @Test func splitsAndReassemblesUnchanged() {
        for text in [
            "https://user:pw@host:8080/a/b?x=1&y=2#frag", "/relative?q", "mailto:someone@example.com", "", "://", "http://",
            "https://h?#", "urn:isbn:123", "a:b:c", "//host/path", "https://[::1]:8080/",
        ] {
            #expect(URIReference(parsing: text).description == text, "\(text)")
        }
        let parts = URIReference(parsing: "https://user:pw@host:8080/a/b?x=1&y=2#frag")
        #expect(parts.scheme == "https")
        #expect(parts.authority == "user:pw@host:8080")
        #expect(parts.path == "/a/b")
        #expect(parts.query == "x=1&y=2")
        #expect(parts.fragment == "frag")
        #expect(parts.userInfoAndHost?.userInfo == "user:pw")
    }

    @Test func identifiesWithoutUserInformation() {
        #expect(URLResolution.identityKey("HTTP://Example.COM:80") == "http://example.com/")
        #expect(URLResolution.identityKey("https://example.com:8443/A%7e%2f?q=%7E%2a#x") == "https://example.com:8443/A~%2F?q=~%2A")
        #expect(URLResolution.identityKey("https://u:p@example.com:443/") == "https://example.com/")
        #expect(URLResolution.identityKey("https://[::1]:443/x") == "https://[::1]/x")
        #expect(URLResolution.identityKey("https://[::1]/x") == "https://[::1]/x")
        #expect(URLResolution.identityKey("https://host:/x") == "https://host/x")
        #expect(URLResolution.identityKey("/movies/%zz%4") == "/movies/%zz%4")
    }
}

/// FNV-1a 64 is part of the report format (fingerprints, shards): published test vectors pin it.
@Suite struct FNV1aTests {
    @Test func publishedVectors() {
        #expect(FNV1a.hash64([UInt8]()) == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a.hash64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(FNV1a.hash64(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
        #expect(FNV1a.hexDigest(Array("foobar".utf8)) == "85944171f73967e8")
    }

    @Test func hexIsZeroPaddedToSixteenDigits() {
        // Search a few inputs for a hash with a leading zero nibble; the digest must keep it.
        let input = (0..<1000).map { Array("x\($0)".utf8) }.first { FNV1a.hash64($0) >> 60 == 0 }
        let bytes = input ?? []
        #expect(input != nil)
        #expect(FNV1a.hexDigest(bytes).utf8.count == 16)
        #expect(FNV1a.hexDigest(bytes).hasPrefix("0"))
        #expect(UInt64(FNV1a.hexDigest(bytes), radix: 16) == FNV1a.hash64(bytes))
    }
}
