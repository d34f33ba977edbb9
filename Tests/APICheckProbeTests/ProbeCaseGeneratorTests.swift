import APICheckJSON
import APICheckProbe
import APICheckSchema
import Testing

@Suite struct ProbeCaseGeneratorTests {
    static let movieSchema = FormSchema.schema(for: FormSchemaTests.movieFields, contentType: "application/json")
    static let fieldNames = ["title", "year", "rating", "contact", "website", "released", "screening", "seen", "genre", "tags"]

    static func validator(_ schema: JSONValue) throws -> JSONSchema {
        var options = JSONSchemaOptions()
        options.formatAssertion = true
        return try JSONSchema(schema, options: options)
    }

    @Test func theSameSeedGivesTheSameCasesInTheSameOrder() throws {
        let first = try ProbeCaseGenerator(schema: Self.movieSchema, seed: 7)
        let second = try ProbeCaseGenerator(schema: Self.movieSchema, seed: 7)
        #expect(first.validCases(limit: 5) == second.validCases(limit: 5))
        let edges = first.edgeCases(limit: 500)
        #expect(edges.map(\.label) == second.edgeCases(limit: 500).map(\.label))
        #expect(edges.map { $0.body.map { JSONWriter().string($0) } } == second.edgeCases(limit: 500).map { $0.body.map { JSONWriter().string($0) } })
    }

    @Test func validCasesComeExamplesFirstThenDefaultsThenBoundsThenGenerated() throws {
        let example: JSONValue = .object([JSONMember("title", "Alien"), JSONMember("year", 1979)])
        let invalidExample: JSONValue = .object([JSONMember("title", "alien")])
        let generator = try ProbeCaseGenerator(schema: Self.movieSchema, examples: [example, invalidExample, example], seed: 7)
        let cases = generator.validCases(limit: 6)
        #expect(cases.count == 6)
        #expect(cases.map(\.label).prefix(4) == ["valid: example 1", "valid: defaults", "valid: every field at its minimum", "valid: every field at its maximum"])
        #expect(cases.dropFirst(4).allSatisfy { $0.label.hasPrefix("valid: generated #") })
        // Every bound at once: year at its minimum 1900, title at its minLength 1.
        #expect(cases[2].body?["year"] == .number("1900") && cases[3].body?["year"] == .number("2100"), "\(cases[2].body.map { JSONWriter().string($0) } ?? "")")
        #expect(cases.first?.body == example)
        #expect(Set(cases.compactMap(\.body)).count == cases.count)
        let validator = try Self.validator(Self.movieSchema)
        for probe in cases {
            #expect(probe.breaks == nil && probe.field == nil && probe.contentType == .declared)
            #expect(probe.body.map(validator.isValid) == true, "\(probe.label)")
        }
    }

    @Test func theDefaultsCaseUsesValuesAndFirstOptions() throws {
        let generator = try ProbeCaseGenerator(schema: Self.movieSchema, seed: 1)
        let defaults = try #require(generator.validCases(limit: 3).first { $0.label == "valid: defaults" })
        #expect(defaults.body?["year"] == 2000)
        #expect(defaults.body?["genre"] == "drama")
        #expect(defaults.body?["seen"] == true)
        #expect(defaults.body?["title"] != nil)
    }

    @Test func breaksIsNilExactlyWhenTheBodyValidates() throws {
        let validator = try Self.validator(Self.movieSchema)
        let cases = try ProbeCaseGenerator(schema: Self.movieSchema, seed: 3).edgeCases(limit: 1_000)
        #expect(cases.count > 100)
        for probe in cases {
            let body = try #require(probe.body, "\(probe.label)")
            if probe.breaks == "Content-Type" {
                #expect(probe.contentType != .declared && validator.isValid(body), "\(probe.label)")
            } else {
                #expect((probe.breaks == nil) == validator.isValid(body), "\(probe.label): breaks \(probe.breaks ?? "nothing")")
            }
        }
    }

    /// Other shapes: a closed object with a `$ref`'d property and exclusive bounds, an array
    /// body, a string body with a pattern.
    static let otherSchemas: [JSONValue] = [
        .object([
            JSONMember("type", "object"), JSONMember("additionalProperties", false), JSONMember("required", ["count"]),
            JSONMember("$defs", .object([JSONMember("Count", .object([
                JSONMember("type", "integer"), JSONMember("exclusiveMinimum", 0), JSONMember("exclusiveMaximum", 10),
            ]))])),
            JSONMember("properties", .object([
                JSONMember("count", .object([JSONMember("$ref", "#/$defs/Count")])),
                JSONMember("labels", .object([JSONMember("type", "array"), JSONMember("items", .object([JSONMember("type", "string")])), JSONMember("minItems", 1)])),
                JSONMember("meta", .object([JSONMember("type", "object"), JSONMember("required", ["id"])])),
            ])),
        ]),
        .object([JSONMember("type", "array"), JSONMember("items", .object([JSONMember("type", "integer")])), JSONMember("maxItems", 3)]),
        .object([JSONMember("type", "string"), JSONMember("pattern", "^[a-z]+$"), JSONMember("minLength", 2)]),
    ]

    @Test(arguments: otherSchemas) func everyShapeKeepsValidCasesValidAndBreaksHonest(schema: JSONValue) throws {
        let validator = try Self.validator(schema)
        let generator = try ProbeCaseGenerator(schema: schema, seed: 11)
        let valid = generator.validCases(limit: 5)
        #expect(!valid.isEmpty)
        for probe in valid { #expect(probe.body.map(validator.isValid) == true, "\(probe.label)") }
        let edges = generator.edgeCases(limit: 500)
        #expect(edges.count >= 7)
        #expect(edges.filter { $0.breaks != nil && $0.breaks != "Content-Type" }.count >= 3)
        for probe in edges {
            let body = try #require(probe.body, "\(probe.label)")
            if probe.breaks != "Content-Type" {
                #expect((probe.breaks == nil) == validator.isValid(body), "\(probe.label): breaks \(probe.breaks ?? "nothing")")
            }
        }
    }

    @Test func referencedAndExclusiveBoundsAreVaried() throws {
        let cases = try ProbeCaseGenerator(schema: Self.otherSchemas[0], seed: 11).edgeCases(limit: 500)
        #expect(cases.first { $0.label == "count: exclusive min (0)" }?.breaks == "exclusiveMinimum")
        #expect(cases.first { $0.label == "count: exclusive max (10)" }?.breaks == "exclusiveMaximum")
        #expect(cases.first { $0.label == "labels: minItems - 1 (0 items)" }?.breaks == "minItems")
        #expect(cases.first { $0.label == "body: unknown field" }?.breaks == "additionalProperties")
    }

    @Test func theCatalogNamesWhatEachCaseBreaks() throws {
        let cases = try ProbeCaseGenerator(schema: Self.movieSchema, seed: 3).edgeCases(limit: 1_000)
        func breaks(_ label: String) -> String?? { cases.first { $0.label == label }.map(\.breaks) }
        #expect(breaks("title: missing (required)") == "required")
        #expect(breaks("year: max + 1 (2101)") == "maximum")
        #expect(breaks("year: min - 1 (1899)") == "minimum")
        #expect(breaks("year: max (2100)") == .some(nil))
        #expect(breaks("year: wrong type (string)") == "type")
        #expect(breaks("year: a list instead of one value") == "type")
        #expect(breaks("year: fraction (0.5)") == nil, "a number input is not an integer: no fraction case")
        #expect(breaks("year: Int64 max + 1") == "maximum")
        #expect(breaks("title: maxLength + 1 (101 characters)") == "maxLength")
        #expect(breaks("title: 10,000 characters") == "maxLength")
        #expect(breaks("title: does not match the pattern") == "pattern")
        #expect(breaks("genre: not one of the options") == "enum")
        #expect(breaks("contact: not a valid email") == "format")
        #expect(breaks("rating: -0") == .some(nil))
        #expect(breaks("body: unknown field") == .some(nil))
        #expect(breaks("body: 64 levels of nesting") == .some(nil))
        #expect(breaks("Content-Type: none") == "Content-Type")
        #expect(breaks("Content-Type: text/plain") == "Content-Type")
        #expect(breaks("contact: NFD Unicode") == "format")
    }

    @Test func nfcAndNFDAreTwoCasesAndU0000IsWrittenEscaped() throws {
        let cases = try ProbeCaseGenerator(schema: Self.movieSchema, seed: 3).edgeCases(limit: 1_000)
        let nfc = try #require(cases.first { $0.label == "genre: NFC Unicode" }?.body)
        let nfd = try #require(cases.first { $0.label == "genre: NFD Unicode" }?.body)
        #expect(JSONWriter().bytes(nfc) != JSONWriter().bytes(nfd))
        let zero = try #require(cases.first { $0.label == "genre: U+0000" }?.body)
        #expect(JSONWriter().string(zero).contains("a\\u0000b"))
    }

    @Test func aDuplicateKeyIsWrittenTwice() throws {
        let cases = try ProbeCaseGenerator(schema: Self.movieSchema, seed: 3).edgeCases(limit: 1_000)
        let duplicate = try #require(cases.first { $0.label == "body: duplicate key \"title\"" })
        let body = try #require(duplicate.body)
        guard case .object(let members) = body else {
            Issue.record("not an object")
            return
        }
        #expect(members.filter { $0.key == "title" }.count == 2)
        #expect(JSONWriter().string(body).components(separatedBy: "\"title\":").count == 3)
    }

    @Test func aSmallBudgetTouchesEveryFieldOnceMostRevealingFirst() throws {
        let generator = try ProbeCaseGenerator(schema: Self.movieSchema, seed: 3)
        let cases = generator.edgeCases(limit: Self.fieldNames.count)
        #expect(cases.map(\.field) == Self.fieldNames.map(Optional.some))
        #expect(cases[0].label == "title: missing (required)")
        #expect(cases[1].label == "year: missing (required)")
        #expect(cases[2].label == "rating: a list instead of one value")
        // One more round: the body comes after every field.
        let more = generator.edgeCases(limit: Self.fieldNames.count + 1)
        #expect(more.last?.field == nil && more.last?.label == "body: unknown field")
    }

    @Test func unknownFieldsBreakOnlyAClosedSchema() throws {
        let closed: JSONValue = .object([
            JSONMember("type", "object"), JSONMember("properties", .object([JSONMember("name", .object([JSONMember("type", "string")]))])),
            JSONMember("additionalProperties", false),
        ])
        let cases = try ProbeCaseGenerator(schema: closed, seed: 1).edgeCases(limit: 100)
        #expect(cases.first { $0.label == "body: unknown field" }?.breaks == "additionalProperties")
        #expect(cases.first { $0.label == "body: 64 levels of nesting" }?.breaks == "additionalProperties")
    }

    @Test func aBodyThatIsNotAnObjectIsVariedAsAWhole() throws {
        let schema: JSONValue = .object([JSONMember("type", "string"), JSONMember("maxLength", 20)])
        let cases = try ProbeCaseGenerator(schema: schema, seed: 1).edgeCases(limit: 100)
        #expect(cases.first?.label == "body: a list instead of one value")
        #expect(cases.contains { $0.label == "body: wrong type (number)" })
        #expect(cases.first { $0.label == "body: maxLength + 1 (21 characters)" }?.breaks == "maxLength")
        #expect(cases.allSatisfy { $0.field == nil })
        #expect(cases.contains { $0.label == "Content-Type: none" })
    }

    @Test func aSchemaThatDoesNotCompileThrows() {
        let broken: JSONValue = .object([JSONMember("type", "object"), JSONMember("minLength", "ten")])
        #expect(throws: JSONSchemaError.self) { try ProbeCaseGenerator(schema: broken, seed: 1) }
    }

    /// A hostile form's bounds cost nothing: no string of its minLength, no list of its maxItems.
    @Test func hostileBoundsAreNotProbed() throws {
        let schema: JSONValue = .object([
            JSONMember("type", "object"),
            JSONMember("properties", .object([
                JSONMember("name", .object([JSONMember("type", "string"), JSONMember("minLength", .number("100000000000"))])),
                JSONMember("tags", .object([JSONMember("type", "array"), JSONMember("maxItems", .number("9223372036854775807"))])),
            ])),
        ])
        let cases = try ProbeCaseGenerator(schema: schema, seed: 1).edgeCases(limit: 200)
        #expect(!cases.isEmpty)
        #expect(cases.allSatisfy { ($0.body.map { JSONWriter().string($0).utf8.count } ?? 0) < 200_000 })
        #expect(!cases.contains { $0.label.hasPrefix("name: minLength") || $0.label.hasPrefix("tags: maxItems") })
    }
}
