@testable import APICheckReport
import Testing

@Suite struct FindingTests {
    @Test func relPathReadsFromTheRoot() {
        #expect(SampleReports.brokenPoster.relPathDescription == "root → library → movies[3] → poster")
        #expect(Finding(rule: .linkResolves, url: "u", message: "m").relPathDescription == "root")
        #expect(RelPath.describe(["a"]) == "root → a")
    }

    /// Baselines written by one version must keep matching in the next: the algorithm is pinned.
    @Test func fingerprintIsPinned() {
        #expect(SampleReports.brokenPoster.fingerprint == "235ca1f50e46e09de31dbc3547e1d4ac")
        #expect(SampleReports.brokenPoster.fingerprint.utf8.count == 32)
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

@Suite struct URLPartsTests {
    @Test func splitsAndReassemblesUnchanged() {
        for text in [
            "https://user:pw@host:8080/a/b?x=1&y=2#frag", "/relative?q", "mailto:someone@example.com", "", "://", "http://",
            "https://h?#", "urn:isbn:123", "a:b:c", "//host/path", "https://[::1]:8080/",
        ] {
            #expect(URLParts(text).string == text, "\(text)")
        }
        let parts = URLParts("https://user:pw@host:8080/a/b?x=1&y=2#frag")
        #expect(parts.scheme == "https")
        #expect(parts.authority == "user:pw@host:8080")
        #expect(parts.path == "/a/b")
        #expect(parts.query == "x=1&y=2")
        #expect(parts.fragment == "frag")
        #expect(parts.userInfoAndHost?.userInfo == "user:pw")
    }

    @Test func normalises() {
        #expect(URLParts("HTTP://Example.COM:80").normalized == "http://example.com/")
        #expect(URLParts("https://example.com:8443/A%7e%2f?q=%7E%2a#x").normalized == "https://example.com:8443/A~%2F?q=~%2A")
        #expect(URLParts("https://u:p@example.com:443/").normalized == "https://example.com/")
        #expect(URLParts("https://[::1]:443/x").normalized == "https://[::1]/x")
        #expect(URLParts("https://[::1]/x").normalized == "https://[::1]/x")
        #expect(URLParts("https://host:/x").normalized == "https://host/x")
        #expect(URLParts("/movies/%zz%4").normalized == "/movies/%zz%4")
    }
}

@Suite struct SHA256Tests {
    @Test func knownVectors() {
        #expect(SHA256.hexDigest([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hexDigest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hexDigest(Array(String(repeating: "a", count: 1000).utf8))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        #expect(SHA256.hexDigest(Array("abc".utf8), byteCount: 4) == "ba7816bf")
    }
}
