import Foundation
import Testing

@testable import APICheckModel

@Suite struct OriginRewriterTests {
    private func rewrite(_ text: String, from: String = "http://localhost:3000", to: String = "http://127.0.0.1:8080") throws -> String {
        try OriginRewriter(from: from, to: to).rewrite(text)
    }

    @Test func rewritesEveryOccurrenceAtOriginBoundaries() throws {
        #expect(try rewrite(#"{"href":"http://localhost:3000/movies","up":"http://localhost:3000"}"#) == #"{"href":"http://127.0.0.1:8080/movies","up":"http://127.0.0.1:8080"}"#)
        #expect(try rewrite("<link href='http://localhost:3000?x=1'/>") == "<link href='http://127.0.0.1:8080?x=1'/>")
        #expect(try rewrite("http://localhost:3000#top http://localhost:3000/a") == "http://127.0.0.1:8080#top http://127.0.0.1:8080/a")
    }

    @Test func leavesOtherOriginsAlone() throws {
        for text in [
            "http://localhost:30001/a", "http://localhost:3000.example.com/", "https://localhost:3000/", "xhttp://localhost:3000/",
            "http://localhost:3000-x/", "http://localhost:3000:1/",
        ] {
            #expect(try rewrite(text) == text, "\(text)")
        }
        let rewriter = try OriginRewriter(from: "http://localhost:3000", to: "http://127.0.0.1:8080")
        #expect(rewriter.rewrite(Array("nothing to see".utf8)) == nil)
    }

    @Test func rewritesJSONEscapedSlashes() throws {
        #expect(try rewrite(#"{"href":"http:\/\/localhost:3000\/movies"}"#) == #"{"href":"http:\/\/127.0.0.1:8080\/movies"}"#)
    }

    @Test func normalisesOriginsAndRefusesWhatIsNotOne() throws {
        #expect(try OriginRewriter.normalizedOrigin("HTTP://LocalHost:3000/") == "http://localhost:3000")
        for bad in ["localhost:3000", "ftp://x", "http://", "http://a/b", "http://u@h", "http://a b"] {
            #expect(throws: OriginRewriter.OriginError.self, "\(bad)") { try OriginRewriter.normalizedOrigin(bad) }
        }
    }

    @Test func partialMatchesDoNotHideLaterOnes() throws {
        // A prefix of the origin right before the real one (KMP must fall back, not skip).
        #expect(try rewrite("http://localhost:300 http://localhost:3000/x") == "http://localhost:300 http://127.0.0.1:8080/x")
        #expect(try rewrite("http://localhost:http://localhost:3000/x") == "http://localhost:http://127.0.0.1:8080/x")
        // Glued to a longer scheme it is another URL.
        #expect(try rewrite("300http://localhost:3000/x") == "300http://localhost:3000/x")
        #expect(try rewrite("aaab", from: "http://aab", to: "http://z") == "aaab")
        #expect(try rewrite("http://aaaab/", from: "http://aaab", to: "http://z") == "http://aaaab/")
        #expect(try rewrite("x http://aaab/", from: "http://aaab", to: "http://z") == "x http://z/")
    }

    @Test func hostileInputStaysLinear() throws {
        let rewriter = try OriginRewriter(from: "http://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", to: "http://b")
        let text = [UInt8]("http://".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 4 << 20)
        let start = ContinuousClock.now
        _ = rewriter.rewrite(text)
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test func textTypesAreRecognised() {
        for type in ["application/json", "application/json; charset=utf-8", "application/hal+json", "application/vnd.acme+json", "text/html", "TEXT/PLAIN", "application/atom+xml", "application/xml"] {
            #expect(OriginRewriter.isText(contentType: type, isUTF8: false), "\(type)")
        }
        for type in ["image/jpeg", "application/octet-stream", "image/jpg", "application/pdf"] {
            #expect(!OriginRewriter.isText(contentType: type, isUTF8: true), "\(type)")
        }
        #expect(OriginRewriter.isText(contentType: nil, isUTF8: true))
        #expect(!OriginRewriter.isText(contentType: nil, isUTF8: false))
    }
}

/// One notion of origin: a URL's and one written as text agree, default ports left out.
@Suite struct OriginTests {
    @Test(arguments: [
        ("http://API.example.com:80/x?y", "http://api.example.com:80"), ("https://h:443/", "https://h"), ("http://h:8080/a", "http://h:8080"),
        ("http://[::1]:3000/", "http://[::1]:3000"),
    ])
    func aURLsOriginIsItsNormalizedOrigin(url: String, written: String) throws {
        let origin = OriginRewriter.origin(of: try #require(URL(string: url)))
        #expect(origin == (try OriginRewriter.normalizedOrigin(written)))
        #expect(!origin.hasSuffix(":80") && !origin.hasSuffix(":443"))
    }
}
