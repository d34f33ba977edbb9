import APICheckJSON
import Foundation
import Testing

@testable import APICheckSchema

@Suite struct FormatCheckerTests {
    // MARK: - The official JSON-Schema-Test-Suite, optional/format

    /// The formats this part checks, by the suite's file names (the file is named after the format).
    static let suiteFormats = [
        "date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uri", "uri-reference",
        "uri-template", "uuid", "regex", "json-pointer",
        // Out of scope for the project but recognised because they are cheap to check.
        "relative-json-pointer", "iri", "iri-reference", "idn-email", "idn-hostname",
    ]

    static let drafts = ["draft2020-12", "draft2019-09", "draft7", "draft6", "draft4"]

    /// Every string instance of every `{"format": X}` schema in the suite's files for `draft`
    /// must get the suite's answer; the message lists the ones that do not.
    @Test(arguments: drafts)
    func officialSuite(draft: String) throws {
        let folder = try #require(Self.suiteFolder(draft: draft), "JSON-Schema-Test-Suite not found for \(draft)")
        var total = 0
        var failures: [String] = []
        for format in Self.suiteFormats {
            let path = folder + "/" + format + ".json"
            guard let data = FileManager.default.contents(atPath: path) else { continue }  // not in this draft
            let groups = try JSONParser().parseValue(Array(data))
            guard case .array(let groupList) = groups else {
                Issue.record("\(path) is not an array of test groups")
                continue
            }
            for group in groupList {
                guard case .object(let schemaMembers)? = group["schema"],
                    schemaMembers.allSatisfy({ $0.key == "format" || $0.key == "$schema" }),
                    case .string(let schemaFormat)? = group["schema"]?["format"],
                    case .array(let tests)? = group["tests"]
                else { continue }
                for test in tests {
                    // Non-string instances are valid for any format; the engine decides that.
                    guard case .string(let instance)? = test["data"], case .bool(let expected)? = test["valid"] else {
                        continue
                    }
                    total += 1
                    let answer = FormatChecker.check(schemaFormat, instance, isRegex: Self.bracketsBalance)
                    if answer != expected {
                        let description: String
                        if case .string(let text)? = test["description"] { description = text } else { description = "" }
                        failures.append(
                            "\(schemaFormat) \(String(reflecting: instance)): expected \(expected), got \(String(describing: answer)) (\(description))"
                        )
                    }
                }
            }
        }
        #expect(total >= 100, "only \(total) suite cases found in \(folder)")
        #expect(failures.isEmpty, "\(failures.count) of \(total) \(draft) format cases fail:\n\(failures.joined(separator: "\n"))")
    }

    /// `$JSON_SCHEMA_TEST_SUITE` (a checkout of the suite, to try a newer one), else the vendored
    /// copy beside this file, else the copy the python `jsonschema` sdist carries.
    static func suiteFolder(draft: String, filePath: String = #filePath) -> String? {
        let testsFolder = URL(fileURLWithPath: filePath).resolvingSymlinksInPath().deletingLastPathComponent().path
        let override = ProcessInfo.processInfo.environment["JSON_SCHEMA_TEST_SUITE"].map { ["\($0)/tests/\(draft)/optional/format"] }
        let candidates = (override ?? []) + [
            testsFolder + "/Suite/tests/\(draft)/optional/format",
            "/tmp/pipdl/jsonschema-4.26.0/json/tests/\(draft)/optional/format",
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/ipv4.json") }
    }

    /// A stand-in for the regex engine (another part's): the suite's two regex cases differ only
    /// in whether the brackets balance.
    static func bracketsBalance(_ pattern: String) -> Bool {
        var open: [Character] = []
        var escaped = false
        for character in pattern {
            if escaped { escaped = false; continue }
            switch character {
            case "\\": escaped = true
            case "(", "[": open.append(character)
            case ")": if open.popLast() != "(" { return false }
            case "]": if open.popLast() != "[" { return false }
            default: break
            }
        }
        return open.isEmpty
    }

    // MARK: - Hand-written edge cases

    struct Case: CustomTestStringConvertible, Sendable {
        var format: String
        var value: String
        var valid: Bool
        var testDescription: String { "\(format) \(String(reflecting: value)) → \(valid)" }
    }

    static func cases(_ format: String, valid: [String], invalid: [String]) -> [Case] {
        valid.map { Case(format: format, value: $0, valid: true) } + invalid.map { Case(format: format, value: $0, valid: false) }
    }

    static let edgeCases: [Case] =
        cases(
            "date-time",
            valid: ["2016-02-29T00:00:00Z", "2000-02-29T23:59:59.999999999+14:00", "0000-01-01T00:00:00z", "1990-12-31T23:59:60Z"],
            invalid: [
                "1900-02-29T00:00:00Z", "2016-02-29 00:00:00Z", "2016-02-29T00:00:00", "2016-02-29T00:00:00.Z",
                "2016-02-29T", "2016-02-29", "2016-02-29T00:00Z", "2016-02-29T00:00:00+01", "2016-02-29T00:00:00+01:00:00",
                "2016-02-29T00:00:00Zjunk", "",
            ])
        + cases(
            "date", valid: ["2000-02-29", "0001-01-01", "9999-12-31"],
            invalid: ["1900-02-29", "2000-00-01", "2000-01-00", "2000-01-01 ", "+2000-01-01", "2000-1-011", "2000/01/01", ""])
        + cases(
            "time", valid: ["00:00:00Z", "23:59:59.1-23:59", "00:59:60+01:00", "12:00:00.000000000000000000001Z"],
            invalid: ["23:59:60-00:01", "12:00:00+0100", "12:00:00.+01:00", "12:00Z", "T12:00:00Z", "12:00:00ZZ", "1", ""])
        + cases(
            "duration", valid: ["P1Y2M3DT4H5M6S", "P1Y2M", "P2M3D", "PT1H2M", "PT2M3S", "P1DT2S", "PT1M", "P1W", "P0Y", "P10000D"],
            invalid: [
                "P1Y3D", "PT1H5S", "P1Y2M3DT4H6S", "P1MT1H1S", "-P1D", "P1e2D", "P1D\n", "P0Y1W", "P1WT1H", "PT0,5S",
                "P", "PT", "P1YT", "P1W1D", "P1DT1W", "PT1H1H", "PT1M1H", "P1M1Y", "P1.5D", "p1d", "P1DT", "PT1D", "P-1D",
                "P1D ", " P1D", "P1DT1HT1M", "",
            ])
        + cases(
            "email",
            valid: [
                "a@b", "a.b.c@example.com", "!#$%&'*+-/=?^_`{|}~@example.com", "\"\"@example.com",
                "\"a\\\"b\"@example.com", "joe@[IPv6:2001:db8::1]", "joe@[ipv6:::ffff:1.2.3.4]",
                String(repeating: "a", count: 64) + "@example.com",
            ],
            invalid: [
                "@example.com", "joe@", "joe", "joe@@example.com", "joe@example..com", "joe@-example.com",
                "jo e@example.com", "\"joe@example.com", "\"a\"b@example.com", "joe@[IPv6:1::2::3]", "joe@[1.2.3]",
                "joe@[tag:content]", "joe@[127.0.0.1", "jöe@example.com",
                String(repeating: "a", count: 65) + "@example.com",
            ])
        + cases(
            "idn-email", valid: ["jöe@exämple.com", "\"ö\"@example.com"], invalid: ["jöe", "jöe@-exämple.com", "jö..e@x"])
        + cases(
            "hostname",
            valid: [
                "a", "A-B.c", "123.456", "xn--bcher-kva.example", "XN--BCHER-KVA.example", "a--b.com", "ab--c",
                Array(repeating: String(repeating: "a", count: 63), count: 3).joined(separator: ".") + "." + String(repeating: "b", count: 61),
            ],
            invalid: [
                "example.com.", ".example.com", "a..b", "a b", "exa!mple", "exämple.com", "example\u{FF0E}com",
                // A-labels must be canonical Punycode of a valid U-label.
                "xn--X.com", "xn--example-", "xn---9uc", "xn--7a", "xn--bcher-kva-.de",
                Array(repeating: String(repeating: "a", count: 63), count: 3).joined(separator: ".") + "." + String(repeating: "b", count: 62),
            ])
        + cases(
            "idn-hostname",
            valid: [
                "bücher.de", "xn--bcher-kva.de", "Example.COM", "例え.テスト", "a\u{3002}b\u{FF61}c", "l·l",
                "αβγ", "שלום.com", "\u{0628}\u{0660}\u{0628}", String(repeating: "ü", count: 29),
            ],
            invalid: [
                "", ".", "a.", "Bücher.de", "bü cher", "ab--c", "-ü", "ü-", "\u{0301}a", "ü\u{200D}",
                "\u{0660}\u{06F0}", "a\u{05D0}", "1\u{05D0}", "xn--X", "a..b", String(repeating: "ü", count: 60),
                "\u{2163}", "\u{00A0}x",
            ])
        + cases(
            "ipv4", valid: ["0.0.0.0", "255.255.255.255", "1.2.3.4"],
            invalid: ["1.2.3.04", "1.2.3.", ".1.2.3", "1..2.3", "1.2.3.4.", "1.2.3.256", "1.2.3.1000", "1.2.3.-1", " 1.2.3.4", ""])
        + cases(
            "ipv6",
            valid: [
                "::", "::1", "1::", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1:2:3:4:5:6::8", "FFFF:ffff::", "::1.2.3.4",
                "1:2:3:4:5:6:1.2.3.4", "1::1.2.3.4", "fe80::1:2",
            ],
            invalid: [
                ":", ":::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::8", "1::2:3:4:5:6:7:8", "::1.2.3.4:5", "1:2:3:4:5:6:7:1.2.3.4",
                "1:2:3:4:5::1.2.3.4:1", "::01.2.3.4", "12345::", "g::", "[::1]", "::1%1", "",
            ])
        + cases(
            "uri",
            valid: [
                "http://example.com", "http:", "file:///etc/hosts", "http://[v7.fe80::a+b]/", "http://[::1]:8080/x?y#z",
                "urn:isbn:0451450523", "a+b-c.d:x", "http://user:pass@host:/", "http://h/%41%c3%a9", "x:/a?b?c#d/e?f",
            ],
            invalid: [
                "", "1http://example.com", "http://exa mple.com", "http://example.com/%4", "http://example.com/%zz",
                "http://a@b@c", "http://[::1", "http://[1::2::3]/", "http://host:80a/", "http://example.com/#a#b",
                "http://example.com/<>", "http://é.com", "http://[v.x]/", "http://[vfe.]/", "\\\\server\\share",
            ])
        + cases(
            "uri-reference", valid: ["", "#", "?", "a/b:c", "./a:b", "//host", "../x?y", "%41"],
            invalid: ["a:b:c%", ":a", "1a:b", "a b", "#a#b", "//[zz]", "é"])
        + cases(
            "iri", valid: ["http://ƒøø.ßår/?∂éœ=πîx#πîüx", "urn:é"], invalid: ["/é", "http://ƒøø ßår", "é:x"])
        + cases("iri-reference", valid: ["é", "/é?é#é", "//é/"], invalid: ["é:x", "\\é", "é%"])
        + cases(
            "uri-template",
            valid: [
                "", "{a}", "{+a}", "{#a,b}", "{.a*}", "{/a:9999}", "{;a.b}", "{?a_b,c}", "{&a%20}", "x{=a}y", "é{a}",
                "%20{a}", "a'b", "{a,b.c*,%41:1}",
            ],
            invalid: [
                "{", "}", "{}", "{a", "{+}", "{a:0}", "{a:10000}", "{a:}", "{a*b}", "{.a.}", "{a..b}", "{a,}", "{a b}",
                "{a}}", "a b", "a<b", "{a,,b}", "{v:01}", "{var=def}", "{,+var}", "a\u{7F}b", "%2", "{%2}", "{{a}}", "{++a}",
            ])
        + cases(
            "uuid", valid: ["ffffffff-ffff-ffff-ffff-ffffffffffff"],
            invalid: ["{2eb8aa08-aa98-11ea-b4aa-73b441d16380}", "2eb8aa08-aa98-11ea-b4aa-73b441d1638g", "", "urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380"])
        + cases("json-pointer", valid: ["/", "//", "/~0~1", "/é"], invalid: ["~0", "/~", "/~01~"])
        + cases(
            "relative-json-pointer", valid: ["0", "0/", "10#", "1+1/a", "2-3"],
            invalid: ["", "#", "0-0", "0+01", "00", "1+", "0#/a", "0-1#", "1~"])

    @Test(arguments: edgeCases)
    func edgeCase(_ testCase: Case) {
        #expect(FormatChecker.check(testCase.format, testCase.value, isRegex: { _ in Issue.record("regex asked"); return false }) == testCase.valid)
    }

    /// Every checker reads only inside the string: each prefix and suffix of every edge case,
    /// under every format, is answered without trapping (debug builds check buffer bounds).
    @Test func truncatedInputsAreReadInBounds() {
        var answered = 0
        for testCase in Self.edgeCases {
            let characters = Array(testCase.value)
            for cut in 0...characters.count {
                for piece in [String(characters[..<cut]), String(characters[cut...])] {
                    for kind in FormatChecker.Kind.allCases where kind != .regex {
                        _ = FormatChecker.check(kind, piece, isRegex: { _ in true })
                        answered += 1
                    }
                }
            }
        }
        #expect(answered > 10_000)
    }

    // MARK: - Dispatch

    @Test func regexIsDelegatedToTheClosure() {
        var seen: [String] = []
        #expect(FormatChecker.check("regex", "a(b", isRegex: { seen.append($0); return false }) == false)
        #expect(FormatChecker.check("regex", "a(b)", isRegex: { seen.append($0); return true }) == true)
        #expect(seen == ["a(b", "a(b)"])
    }

    @Test func unknownAndOutOfScopeFormatsAreNotChecked() {
        for format in ["color", "int32", "DATE", "date ", ""] {
            #expect(FormatChecker.check(format, "anything", isRegex: { _ in true }) == nil, "\(format)")
            #expect(!FormatChecker.knownFormats.contains(format))
        }
        #expect(FormatChecker.knownFormats == Set(Self.suiteFormats))
        for kind in FormatChecker.Kind.allCases {
            #expect(FormatChecker.check(kind.rawValue, "", isRegex: { _ in true }) != nil)
        }
    }

    @Test func stringsThatAreNotNativeUTF8AreReadToo() {
        // A substring made into a String, and a string built from UTF-16, still check as usual.
        let text = "xx2020-02-29xx"
        let date = String(text.dropFirst(2).dropLast(2))
        #expect(FormatChecker.check("date", date, isRegex: { _ in true }) == true)
        let utf16 = String(decoding: Array("::ffff:1.2.3.4".utf16), as: UTF16.self)
        #expect(FormatChecker.check("ipv6", utf16, isRegex: { _ in true }) == true)
    }
}
