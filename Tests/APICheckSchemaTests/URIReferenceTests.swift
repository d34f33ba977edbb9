@testable import APICheckSchema
import Testing

@Suite struct URIReferenceTests {
    // RFC 3986 §5.4: every normal and abnormal example against its base.
    static let base = "http://a/b/c/d;p?q"
    static let examples: [(String, String)] = [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"), ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"),
        ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"),
        ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"),
    ]

    @Test func resolvesRFC3986Examples() {
        for (reference, expected) in Self.examples {
            #expect(URIReference.resolve(reference, against: Self.base) == expected, "\(reference)")
        }
    }

    @Test func keepsURNsAndFragmentsAsWritten() {
        #expect(URIReference.resolve("#/$defs/a", against: "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed") == "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/a")
        #expect(URIReference.resolve("#foo", against: "http://x/y.json") == "http://x/y.json#foo")
        #expect(URIReference.resolve("bar.json", against: "file:///folder/file.json") == "file:///folder/bar.json")
        #expect(URIReference.resolve("tree.json#", against: "") == "tree.json#")
        #expect(URIReference.stripFragment("http://x/y#z") == "http://x/y")
        #expect(URIReference.fragment(of: "http://x/y#") == "")
        #expect(URIReference.fragment(of: "http://x/y") == nil)
    }

    @Test func percentDecodesFragments() {
        #expect(URIReference.percentDecoded("/%25foo/%22bar") == "/%foo/\"bar")
        #expect(URIReference.percentDecoded("/caf%C3%A9") == "/café")
        #expect(URIReference.percentDecoded("/bad%zz") == "/bad%zz")
    }
}
