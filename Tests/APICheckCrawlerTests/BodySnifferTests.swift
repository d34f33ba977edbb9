import APICheckCrawler
import APICheckHypermedia
import APICheckVerifier
import Testing

@Suite struct BodySnifferTests {
    private let sniffer = BodySniffer()
    private func type(_ text: String) throws -> MediaType { try MediaType(parsing: text) }

    @Test func jsonFamilyParses() throws {
        #expect(sniffer.check(Array(#"{"a":[1,2]}"#.utf8), against: try type("application/vnd.api+json")) == .agrees)
        #expect(sniffer.check(Array("[1]".utf8), against: try type("text/json")) == .agrees)
        guard case .disagrees(let reason) = sniffer.check(Array(#"{"a":"#.utf8), against: try type("application/json")) else {
            Issue.record("truncated JSON must disagree")
            return
        }
        #expect(reason.hasPrefix("the body is not JSON (application/json): 1:6:"))
        #expect(sniffer.check([], against: try type("application/json")) == .disagrees("the body is empty, not a application/json document"))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]
        #expect(sniffer.check(png, against: try type("application/hal+json")) == .disagrees("the body is not JSON: it starts with the image/png signature"))
        let deep = Array((String(repeating: "[", count: 300) + String(repeating: "]", count: 300)).utf8)
        guard case .disagrees = sniffer.check(deep, against: try type("application/json")) else {
            Issue.record("nesting beyond the bound must be refused")
            return
        }
        #expect(sniffer.check([0x22, 0xFF, 0x22], against: try type("application/json")) != .agrees)
    }

    @Test func xmlFamilyIsWellFormed() throws {
        #expect(sniffer.check(Array("<feed xmlns='http://www.w3.org/2005/Atom'/>".utf8), against: try type("application/atom+xml")) == .agrees)
        guard case .disagrees(let reason) = sniffer.check(Array("<a><b></a>".utf8), against: try type("text/xml")) else {
            Issue.record("mismatched tags must disagree")
            return
        }
        #expect(reason.hasPrefix("the body is not well-formed XML (text/xml): 1:"))
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE l [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;\">]><l>&b;</l>"
        guard case .disagrees = sniffer.check(Array(bomb.utf8), against: try type("application/xml")) else {
            Issue.record("entity declarations must be refused")
            return
        }
    }

    @Test func imagesAndPDFByMagicBytes() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]
        let gif = Array("GIF89a\u{1}\u{0}".utf8)
        let webp = Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        let pdf = Array("\n%PDF-1.7\n".utf8)
        #expect(sniffer.check(jpeg, against: try type("image/jpeg")) == .agrees)
        #expect(sniffer.check(jpeg, against: try type("image/jpg")) == .agrees)  // checked as image/jpeg
        #expect(sniffer.check(gif, against: try type("image/gif")) == .agrees)
        #expect(sniffer.check(webp, against: try type("image/webp")) == .agrees)
        #expect(sniffer.check(pdf, against: try type("application/pdf")) == .agrees)
        #expect(sniffer.check(jpeg, against: try type("image/png")) == .disagrees("the body is not a PNG image: it starts with the image/jpeg signature"))
        #expect(sniffer.check(Array("<html>".utf8), against: try type("image/gif")) == .disagrees("the body does not start with the a GIF image signature (GIF87a or GIF89a); it starts with 3C 68 74 6D 6C 3E"))
        #expect(sniffer.check([], against: try type("image/webp")) == .disagrees("the body is empty, not a WebP image"))
        #expect(BodySniffer.detectedSignature(of: webp) == "image/webp")
        #expect(BodySniffer.detectedSignature(of: Array("RIFF".utf8)) == nil)
    }

    @Test func textIsValidUTF8() throws {
        #expect(sniffer.check(Array("héllo".utf8), against: try type("text/plain")) == .agrees)
        #expect(sniffer.check([0x61, 0xC3, 0x28], against: try type("text/html; charset=UTF-8")) == .disagrees("the body is not valid UTF-8 (byte 1) although text/html declares UTF-8"))
        #expect(sniffer.check([0x61, 0xE9], against: try type("text/plain; charset=us-ascii")) == .disagrees("the body has a non-ASCII byte at 1 although its charset is us-ascii"))
        #expect(sniffer.check([0xE9], against: try type("text/plain; charset=iso-8859-1")) == .notChecked("the charset iso-8859-1 is not checked"))
    }

    @Test func unknownTypesAndLargeBodiesAreNotChecked() throws {
        #expect(sniffer.check([1, 2, 3], against: try type("application/octet-stream")) == .notChecked("there is no body check for application/octet-stream"))
        let small = BodySniffer(maximumBytes: 2)
        guard case .notChecked = small.check([1, 2, 3], against: try type("application/json")) else {
            Issue.record("bodies over the bound are not checked")
            return
        }
    }
}
