import APICheckHypermedia
import APICheckJSON
import APICheckProbe
import APICheckSchema
import Testing

@Suite struct FormSchemaTests {
    /// A HAL-FORMS template as `FormField`s: regex, bounds, lengths, options, a read-only id.
    static let movieFields: [FormField] = [
        FormField(name: "id", type: "hidden", value: "m1", isReadOnly: true),
        FormField(name: "title", type: "text", isRequired: true, pattern: "[A-Z].*", minimumLength: 1, maximumLength: 100),
        FormField(name: "year", type: "number", value: "2000", isRequired: true, minimum: "1900", maximum: "2100"),
        FormField(name: "rating", type: "range", minimum: "0", maximum: "5.5"),
        FormField(name: "contact", type: "email"),
        FormField(name: "website", type: "url"),
        FormField(name: "released", type: "date"),
        FormField(name: "screening", type: "datetime-local"),
        FormField(name: "seen", type: "checkbox", value: "true"),
        FormField(name: "genre", type: "text", value: "drama", options: ["drama", "comedy"]),
        FormField(name: "tags", options: ["new", "classic"], allowsSeveralOptions: true),
    ]

    static func property(_ name: String, of schema: JSONValue) -> JSONValue? {
        schema["properties"]?[name]
    }

    @Test func readOnlyFieldsAreLeftOutAndRequiredOnesListed() {
        let schema = FormSchema.schema(for: Self.movieFields, contentType: "application/json")
        #expect(Self.property("id", of: schema) == nil)
        #expect(schema["type"] == .string("object"))
        #expect(schema["required"] == .array(["title", "year"]))
        #expect(schema["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
    }

    @Test func textConstraintsBecomeAnAnchoredPatternAndLengths() {
        let schema = FormSchema.schema(for: Self.movieFields, contentType: nil)
        let expected: JSONValue = .object([
            JSONMember("type", "string"), JSONMember("pattern", "^(?:[A-Z].*)$"),
            JSONMember("minLength", 1), JSONMember("maxLength", 100),
        ])
        #expect(Self.property("title", of: schema) == expected)
    }

    @Test func aNumberInputStaysANumberWhateverItsBounds() {
        // Integer bounds do not say fractions are refused: no probe-accepts-invalid for 0.5.
        let schema = FormSchema.schema(for: Self.movieFields, contentType: nil)
        let year: JSONValue = .object([
            JSONMember("type", "number"), JSONMember("minimum", 1900), JSONMember("maximum", 2100), JSONMember("default", 2000),
        ])
        #expect(Self.property("year", of: schema) == year)
        let rating: JSONValue = .object([JSONMember("type", "number"), JSONMember("minimum", 0), JSONMember("maximum", .number("5.5"))])
        #expect(Self.property("rating", of: schema) == rating)
    }

    @Test func inputTypesMapToFormats() {
        let schema = FormSchema.schema(for: Self.movieFields, contentType: nil)
        #expect(Self.property("contact", of: schema)?["format"] == .string("email"))
        #expect(Self.property("website", of: schema)?["format"] == .string("uri"))
        #expect(Self.property("released", of: schema)?["format"] == .string("date"))
        #expect(Self.property("screening", of: schema)?["format"] == .string("date-time"))
        #expect(Self.property("seen", of: schema) == .object([JSONMember("type", "boolean"), JSONMember("default", true)]))
    }

    @Test func optionsBecomeAnEnumOrAnArrayOfThem() {
        let schema = FormSchema.schema(for: Self.movieFields, contentType: nil)
        #expect(Self.property("genre", of: schema) == .object([JSONMember("enum", ["drama", "comedy"]), JSONMember("default", "drama")]))
        let tags: JSONValue = .object([
            JSONMember("type", "array"), JSONMember("items", .object([JSONMember("enum", ["new", "classic"])])), JSONMember("uniqueItems", true),
        ])
        #expect(Self.property("tags", of: schema) == tags)
    }

    @Test func theSchemaCompilesAndItsDefaultsValidate() throws {
        let schema = FormSchema.schema(for: Self.movieFields, contentType: nil)
        var options = JSONSchemaOptions()
        options.formatAssertion = true
        let validator = try JSONSchema(schema, options: options)
        #expect(validator.isValid(.object([JSONMember("title", "Alien"), JSONMember("year", 1979)])))
        #expect(!validator.isValid(.object([JSONMember("title", "alien"), JSONMember("year", 1979)])))
        #expect(!validator.isValid(.object([JSONMember("title", "Alien"), JSONMember("year", 2101)])))
    }

    @Test func linkParametersAreTypedByConcreteValues() {
        let schema = FormSchema.schema(forParameters: [
            LinkParameter(name: "sort", value: "title"), LinkParameter(name: "page", value: 1),
            LinkParameter(name: "rating", value: "{rating}"), LinkParameter(name: "q"),
        ])
        #expect(Self.property("sort", of: schema) == .object([JSONMember("type", "string"), JSONMember("default", "title")]))
        #expect(Self.property("page", of: schema) == .object([JSONMember("type", "number"), JSONMember("default", 1)]))
        #expect(Self.property("rating", of: schema) == .object([]))
        #expect(Self.property("q", of: schema) == .object([]))
        #expect(schema["required"] == nil)
    }
}
