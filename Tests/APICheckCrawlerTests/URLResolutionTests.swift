import APICheckCrawler
import APICheckHypermedia
import APICheckModel
import APICheckVerifier
import Testing

@Suite struct URLResolutionTests {
    private static let base = "http://a/b/c/d;p?q"

    // RFC 3986 §5.4.1 Normal Examples.
    @Test(arguments: [
        ("g:h", "g:h"),
        ("g", "http://a/b/c/g"),
        ("./g", "http://a/b/c/g"),
        ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"),
        ("//g", "http://g"),
        ("?y", "http://a/b/c/d;p?y"),
        ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("g#s", "http://a/b/c/g#s"),
        ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"),
        ("g;x", "http://a/b/c/g;x"),
        ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"),
        (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"),
        ("..", "http://a/b/"),
        ("../", "http://a/b/"),
        ("../g", "http://a/b/g"),
        ("../..", "http://a/"),
        ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ])
    func normalExamples(reference: String, expected: String) {
        #expect(URLResolution.resolve(reference, against: Self.base) == expected)
    }

    // RFC 3986 §5.4.2 Abnormal Examples (strict parser for "http:g").
    @Test(arguments: [
        ("../../../g", "http://a/g"),
        ("../../../../g", "http://a/g"),
        ("/./g", "http://a/g"),
        ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."),
        (".g", "http://a/b/c/.g"),
        ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"),
        ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"),
        ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http:g"),
    ])
    func abnormalExamples(reference: String, expected: String) {
        #expect(URLResolution.resolve(reference, against: Self.base) == expected)
    }

    // RFC 3986 §5.2.4's own walk-throughs, plus edge cases of the algorithm.
    @Test(arguments: [
        ("/a/b/c/./../../g", "/a/g"),
        ("mid/content=5/../6", "mid/6"),
        ("/..", "/"),
        ("a/..", "/"),
        ("/a/b/..", "/a/"),
        ("../../x", "x"),
        ("//a/./b", "//a/b"),
        ("no/dots/here", "no/dots/here"),
        ("", ""),
    ])
    func removesDotSegments(path: String, expected: String) {
        #expect(URLResolution.removeDotSegments(path) == expected)
    }

    @Test func resolvingNeedsAnAbsoluteBase() {
        #expect(URLResolution.resolve("g", against: "/relative/base") == nil)
        #expect(URLResolution.resolve("https://x/y", against: "") == "https://x/y")
        #expect(URLResolution.resolve("g", against: "http://a") == "http://a/g")
    }

    @Test func splitsReferences() {
        let reference = URIReference(parsing: "https://user@Example.com:8443/p/a?q=1&r#frag")
        #expect(reference.scheme == "https")
        #expect(reference.authority == "user@Example.com:8443")
        #expect(reference.path == "/p/a")
        #expect(reference.query == "q=1&r")
        #expect(reference.fragment == "frag")
        #expect(reference.description == "https://user@Example.com:8443/p/a?q=1&r#frag")
        #expect(URIReference(parsing: "./a:b").scheme == nil)
        #expect(URIReference(parsing: "1a:b").scheme == nil)
        #expect(URIReference(parsing: "?").query == "")
    }

    @Test(arguments: [
        ("HTTP://Example.COM:80/a/./b/../c?Q=%7e%2f#frag", "http://example.com/a/c?Q=~%2F"),
        ("https://example.com:443", "https://example.com/"),
        ("https://example.com:8443/", "https://example.com:8443/"),
        ("http://example.com:/x", "http://example.com/x"),
        ("http://[::1]:80/", "http://[::1]/"),
        ("http://[::1]/", "http://[::1]/"),
        ("http://a/%7Euser/%41%2a", "http://a/~user/A%2A"),
        ("http://a/x?b=2&a=1", "http://a/x?b=2&a=1"),
        ("http://User@A/", "http://User@a/"),
    ])
    func normalisedKeys(url: String, expected: String) {
        #expect(URLResolution.normalisedKey(url) == expected)
    }

    /// The shortcut for URLs that are already normal must agree with full normalisation on
    /// every URL, and must actually be taken for the common case.
    @Test func shortcutAgreesWithNormalisation() {
        let urls = [
            "http://localhost:3000/movies/pLDhp", "http://127.0.0.1:8080/r/17?page=2&size=10", "https://api.example.com/",
            "https://api.example.com:443/x", "http://api.example.com:80/x", "ws://h:80/", "ftp://h:21/f", "http://h:/x", "http://h",
            "http://H/x", "HTTP://h/x", "http://h/./x", "http://h/a/../b", "http://h/.well-known/x", "http://h/a/.", "http://h/a/..",
            "http://h/%7e", "http://h/x?q=%2f", "http://h/x#f", "http://u@h/x", "http://[::1]:8080/x", "http://h/x?a=/./b",
            "http://h/a b", "http://h/caf\u{E9}", "http://h/{id}", "http://h/x?", "http://h//x", "mailto:a@b", "/relative", "x:/y",
            "h2c://host:99999/x", "a+b.c-d://h/x", "1http://h/x", "http://h:8080:90/x", "http://h/[x]|^`\\\"<>",
        ]
        for url in urls {
            #expect(URLResolution.normalisedKey(url) == URLResolution.normalisedKeyByParsing(url), "\(url)")
        }
        #expect(URLResolution.isAlreadyNormal("http://127.0.0.1:8080/r/17?page=2"))
        #expect(URLResolution.isAlreadyNormal("https://api.example.com/movies/pLDhp"))
        #expect(!URLResolution.isAlreadyNormal("http://127.0.0.1:80/r/17"))
    }

    /// Found by `scripts/fuzz link-header` (Fuzz/Corpus/link-header keeps the input): an authority
    /// with another ':' in its host lost one trailing ':' per normalisation (`a::` → `a:` → `a`),
    /// so a key normalised again (a shard's, a report's identity key) was another key.
    @Test func normalisingAKeyAgainChangesNothing() {
        let urls = [
            "H42://qp:0%EF%BF%BD1]%EF%BF%BD::/", "http://a::/", "http://a:80:/x", "http://h:8080:90/x", "http://[::1]:/", "HTTP://A:/",
            "http://u@a:b@c::/", "http://[:%EF%BF%BDccc%EF%BF%BDcStr42ccccc]%EF%BF%BD::/", "http://[::1]x::/", "http://[::1]:80:/",
            "https://ap%EF%BF%BDt00000%440000%44//%EF%BF%BDf", "http://%41%62%2e%5A/",
        ]
        for url in urls {
            let key = URLResolution.normalisedKey(url)
            #expect(URLResolution.normalisedKey(key) == key, "\(url) → \(key)")
            #expect(URLResolution.identityKey(key) == URLResolution.identityKey(url), "\(url)")
        }
        #expect(URLResolution.normalisedKey("http://a:/") == "http://a/")
        #expect(URLResolution.normalisedKey("http://a::/") == "http://a::/")
        // A host's letters decoded from triplets are lower-cased too (found by scripts/fuzz link-header).
        #expect(URLResolution.normalisedKey("http://%41%62%2e%5A/%41") == "http://ab.z/A")
    }

    @Test func equivalentURLsShareAKey() {
        let keys = Set([
            "http://localhost:3000/movies/pLDhp",
            "HTTP://LOCALHOST:3000/movies/./pLDhp#poster",
            "http://localhost:3000/movies/x/../pLDhp",
            "http://localhost:3000/movies/%70LDhp",
        ].map(URLResolution.normalisedKey))
        #expect(keys == ["http://localhost:3000/movies/pLDhp"])
    }

    @Test func validatesReferences() {
        #expect(URLResolution.problem(in: "http://a/b?c=d&e=%20#f") == nil)
        #expect(URLResolution.problem(in: "/caf\u{E9}") == nil)
        #expect(URLResolution.problem(in: "/a b")?.contains("space at offset 2") == true)
        #expect(URLResolution.problem(in: "/a%2")?.contains("'%' at offset 2") == true)
        #expect(URLResolution.problem(in: "/a|b")?.contains("'|' at offset 2") == true)
        #expect(URLResolution.problem(in: "/a\u{7}")?.contains("control character 0x7") == true)
        #expect(URLResolution.encodingNonASCII("/caf\u{E9}?q=\u{1F600}") == "/caf%C3%A9?q=%F0%9F%98%80")
    }
}
