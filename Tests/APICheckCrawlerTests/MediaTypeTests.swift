import APICheckCrawler
import APICheckHypermedia
import APICheckVerifier
import Testing

@Suite struct MediaTypeTests {
    @Test func parsesTypeSubtypeAndParameters() throws {
        let type = try MediaType(parsing: " Application/HAL+JSON ; Charset=\"utf-8\";;profile=\"https://example.com/a b\\\"c\" ; ")
        #expect(type.type == "application")
        #expect(type.subtype == "hal+json")
        #expect(type.essence == "application/hal+json")
        #expect(type.suffix == "json")
        #expect(type.parameters.map(\.name) == ["charset", "profile"])
        #expect(type.parameter("CHARSET") == "utf-8")
        #expect(type.profile == "https://example.com/a b\"c")
        #expect(type.description == "application/hal+json; charset=utf-8; profile=\"https://example.com/a b\\\"c\"")
        #expect(try MediaType(parsing: type.description) == type)
    }

    @Test func suffixes() throws {
        #expect(try MediaType(parsing: "application/json").suffix == nil)
        #expect(try MediaType(parsing: "application/vnd.a+b+xml").suffix == "xml")
        #expect(try MediaType(parsing: "application/vnd.a+").suffix == nil)
        #expect(try MediaType(parsing: "application/problem+json").isJSON)
        #expect(try MediaType(parsing: "text/json").isJSON)
        #expect(try MediaType(parsing: "image/svg+xml").isXML)
        #expect(try MediaType(parsing: "text/xml").isXML)
        #expect(try !MediaType(parsing: "text/plain").isJSON)
        #expect(try MediaType(parsing: "image/jpg").canonicalEssence == "image/jpeg")
    }

    @Test(arguments: [
        ("", MediaTypeProblem.Kind.empty, nil as Int?),
        ("   ", .empty, nil),
        ("vnd.acmeflix.api.movie+json", .missingTopLevelType, 0),
        ("/json", .missingTopLevelType, 0),
        ("application", .missingSubtype, 11),
        ("application/", .emptySubtype, 12),
        ("application/; charset=utf-8", .emptySubtype, 12),
        ("application/json charset=utf-8", .invalidCharacter, 17),
        ("application/json/x", .invalidCharacter, 16),
        ("appli cation/json", .invalidCharacter, 5),
        ("application/(json)", .invalidCharacter, 12),
        ("application/json; charset", .invalidParameter, 25),
        ("application/json; charset = utf-8", .invalidParameter, 25),
        ("application/hal+json; profile=https://a/x", .invalidParameter, 35),
        ("application/json; charset=", .invalidParameter, 26),
        ("application/json; charset=\"utf-8", .invalidParameter, 26),
        ("application/json; =x", .invalidCharacter, 18),
    ])
    func syntaxProblems(text: String, kind: MediaTypeProblem.Kind, offset: Int?) {
        let problem = #expect(throws: MediaTypeProblem.self) { try MediaType(parsing: text) }
        #expect(problem?.kind == kind, "\(text): \(problem?.message ?? "")")
        #expect(problem?.offset == offset, "\(text): \(problem?.message ?? "")")
        #expect(MediaType.problems(in: text) == problem.map { [$0] })
    }

    /// Found by `scripts/fuzz media-type` (Fuzz/Corpus/media-type keeps the input): a quoted-pair
    /// escaped a control character, which RFC 9110 §5.6.4 does not allow, and the type's
    /// description then did not parse back.
    @Test func aQuotedPairCannotEscapeAControlCharacter() throws {
        let problem = #expect(throws: MediaTypeProblem.self) { try MediaType(parsing: "te/plain; %t=\"\\\"q\\\u{14}\"") }
        #expect(problem?.kind == .invalidParameter)
        #expect(problem?.offset == 18)
        let tab = try MediaType(parsing: "text/plain; a=\"x\\\ty\\\"\"")
        #expect(tab.parameter("a") == "x\ty\"")
        #expect(try MediaType(parsing: tab.description) == tab)
    }

    /// Found by `scripts/fuzz media-type` (Fuzz/Corpus/media-type keeps the input): the
    /// description escaped by `Character`, so a backslash or quote followed by a combining mark
    /// was written unescaped and the description parsed to another value.
    @Test func theDescriptionEscapesEveryQuoteAndBackslash() throws {
        let type = MediaType(type: "text", subtype: "plain", parameters: [.init(name: "p", value: "a\\\u{360}b\"\u{301}")])
        #expect(type.description == "text/plain; p=\"a\\\\\u{360}b\\\"\u{301}\"")
        #expect(try MediaType(parsing: type.description) == type)
    }

    @Test func missingTopLevelTypeSuggestsOne() {
        let problems = MediaType.problems(in: "vnd.acmeflix.api.movie+json")
        #expect(problems.map(\.kind) == [.missingTopLevelType])
        #expect(problems.first?.suggestion == "application/vnd.acmeflix.api.movie+json")
        #expect(problems.first?.message == "'vnd.acmeflix.api.movie+json' lacks a top-level type: write 'application/vnd.acmeflix.api.movie+json'")
        #expect(MediaType.problems(in: "jpeg").first?.suggestion == "image/jpeg")
        #expect(MediaType.problems(in: "/html; charset=utf-8").first?.suggestion == "text/html; charset=utf-8")
    }

    @Test(arguments: [
        ("image/jpg", "image/jpeg"),
        ("IMAGE/JPG", "image/jpeg"),
        ("image/pjpeg", "image/jpeg"),
        ("text/json; charset=utf-8", "application/json; charset=utf-8"),
        ("application/x-json", "application/json"),
        ("application/x-javascript", "text/javascript"),
        ("image/x-png", "image/png"),
    ])
    func unregisteredAliasesSuggestTheRegisteredType(text: String, suggestion: String) {
        let problems = MediaType.problems(in: text)
        #expect(problems.map(\.kind) == [.unregisteredAlias])
        #expect(problems.first?.suggestion == suggestion)
    }

    @Test(arguments: [
        "application/json", "application/json; charset=utf-8", "image/jpeg", "application/vnd.acmeflix.api.movie+json",
        "application/hal+json", "text/plain;charset=us-ascii", "application/x-www-form-urlencoded", "font/woff2",
    ])
    func validTypesHaveNoProblems(text: String) {
        #expect(MediaType.problems(in: text).isEmpty)
    }

    @Test func namesOutsideRFC6838AndUnknownTopLevelTypes() {
        #expect(MediaType.problems(in: "json/movie").map(\.kind) == [.unknownTopLevelType])
        #expect(MediaType.problems(in: "application/vnd.a~b").map(\.kind) == [.invalidCharacter])
        #expect(MediaType.problems(in: "application/-x").map(\.kind) == [.invalidCharacter])
        #expect(MediaType.problems(in: "*/*").map(\.kind) == [.wildcard])
        #expect(MediaType.problems(in: "image/*").map(\.kind) == [.wildcard])
        let long = "application/" + String(repeating: "a", count: 128)
        #expect(MediaType.problems(in: long).map(\.kind) == [.invalidCharacter])
        #expect(MediaType.problems(in: String(repeating: "a", count: 2000)).map(\.kind) == [.tooLong])
    }

    @Test func matchingIgnoresCaseAndParametersButProfile() throws {
        let declared = try MediaType(parsing: "application/vnd.acmeflix.api.movie+json")
        #expect(declared.matches(try MediaType(parsing: "Application/VND.acmeflix.api.movie+JSON; charset=utf-8")))
        #expect(!declared.matches(try MediaType(parsing: "application/json; charset=utf-8")))
        #expect(declared.mismatch(with: try MediaType(parsing: "application/json")) == "the subtype is json, not vnd.acmeflix.api.movie+json")
        #expect(try MediaType(parsing: "image/jpeg").mismatch(with: MediaType(parsing: "image/jpg")) == "the subtype is jpg, not jpeg")
        #expect(try MediaType(parsing: "image/jpeg").mismatch(with: MediaType(parsing: "text/html")) == "the type is text/html, not image/jpeg")

        let profiled = try MediaType(parsing: "application/hal+json; profile=\"https://a/x https://a/y\"")
        #expect(profiled.matches(try MediaType(parsing: "application/hal+json; profile=\"https://a/y https://a/x\"")))
        #expect(!profiled.matches(try MediaType(parsing: "application/hal+json; profile=\"https://a/x\"")))
        #expect(profiled.mismatch(with: try MediaType(parsing: "application/hal+json")) == "the profile \"https://a/x https://a/y\" is declared but not served")
        // A served profile the link did not declare is fine.
        #expect(try MediaType(parsing: "application/hal+json").matches(profiled))
        #expect(try MediaType(parsing: "image/*").matches(MediaType(parsing: "image/png")))
    }
}
