@testable import APICheckSchema
import APICheckJSON
import Testing

@Suite struct OpenAPIDialectTests {
    func value(_ text: String) throws -> JSONValue { try JSONParser().parseValue(Array(text.utf8)) }

    func options(_ direction: JSONSchemaOptions.OpenAPIDirection? = nil) -> JSONSchemaOptions {
        var options = JSONSchemaOptions()
        options.defaultDraft = .openAPI30
        options.openAPIDirection = direction
        return options
    }

    @Test func nullableAddsNullToTheType() throws {
        let schema = try JSONSchema(.object(["type": "string", "nullable": true]), options: options())
        #expect(schema.isValid(.null))
        #expect(schema.isValid("x"))
        #expect(!schema.isValid(1))
        let plain = try JSONSchema(.object(["type": "string"]), options: options())
        #expect(!plain.isValid(.null))
        // OpenAPI 3.0.3: `nullable` does not extend an `enum`, which must list null itself.
        let enumeration = try JSONSchema(.object(["type": "string", "nullable": true, "enum": ["a"]]), options: options())
        #expect(!enumeration.isValid(.null))
    }

    @Test func booleanExclusiveBoundsAndIgnoredRefSiblings() throws {
        let schema = try JSONSchema(.object(["minimum": 1, "exclusiveMinimum": true, "maximum": 3, "exclusiveMaximum": false]), options: options())
        #expect(!schema.isValid(1) && schema.isValid(2) && schema.isValid(3))
        let registryDocument = try value(#"{"components": {"schemas": {"Id": {"type": "integer"}}}}"#)
        var registry = JSONSchemaRegistry()
        try registry.add(registryDocument, uri: "https://example.com/api.json", draft: .openAPI30)
        let ref = try JSONSchema(.object(["$ref": "api.json#/components/schemas/Id", "type": "string"]), baseURI: "https://example.com/x.json",
                                 registry: registry, options: options())
        #expect(ref.isValid(1) && !ref.isValid("1"))
    }

    static let petDocument = #"""
    {"components": {"schemas": {
      "Pet": {
        "type": "object", "required": ["petType", "id", "password"],
        "properties": {"petType": {"type": "string"}, "id": {"type": "integer", "readOnly": true},
                       "password": {"$ref": "#/components/schemas/Secret"}},
        "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
        "discriminator": {"propertyName": "petType", "mapping": {"kitty": "#/components/schemas/Cat"}}
      },
      "Secret": {"type": "string", "writeOnly": true},
      "Cat": {"type": "object", "required": ["meows"], "properties": {"meows": {"type": "boolean"}}},
      "Dog": {"type": "object", "required": ["barks"], "properties": {"barks": {"type": "boolean"}}}
    }}}
    """#

    func petSchema(_ direction: JSONSchemaOptions.OpenAPIDirection?) throws -> JSONSchema {
        var registry = JSONSchemaRegistry()
        try registry.add(try value(Self.petDocument), uri: "https://example.com/api.json", draft: .openAPI30)
        return try JSONSchema(.object(["$ref": "https://example.com/api.json#/components/schemas/Pet"]), registry: registry, options: options(direction))
    }

    @Test func discriminatorChoosesTheBranch() throws {
        let pet = try petSchema(nil)
        #expect(pet.isValid(try value(#"{"petType": "Cat", "id": 1, "password": "p", "meows": true}"#)))
        #expect(pet.isValid(try value(#"{"petType": "kitty", "id": 1, "password": "p", "meows": true}"#)))
        #expect(pet.isValid(try value(#"{"petType": "Dog", "id": 1, "password": "p", "barks": true}"#)))
        // Valid against Cat as well, but the discriminator says Dog: only Dog counts.
        #expect(!pet.isValid(try value(#"{"petType": "Dog", "id": 1, "password": "p", "meows": true}"#)))
        let unknown = pet.validate(try value(#"{"petType": "Fish", "id": 1, "password": "p"}"#))
        #expect(unknown.errors.contains { $0.keyword == "discriminator" && $0.instanceLocation == "/petType" })
        let wrongBranch = pet.validate(try value(#"{"petType": "Dog", "id": 1, "password": "p", "meows": true}"#))
        #expect(wrongBranch.errors.contains { $0.keywordLocation == "/$ref/oneOf/1/$ref/required" && $0.error == "\"barks\" is required" })
    }

    @Test func readOnlyAndWriteOnlyFollowTheDirection() throws {
        let cat = #"{"petType": "Cat", "meows": true"#
        let request = try petSchema(.request)
        #expect(request.isValid(try value(cat + #", "password": "p"}"#)))           // id is readOnly: not required
        #expect(!request.isValid(try value(cat + #", "password": "p", "id": 1}"#)))  // and not allowed
        let sent = request.validate(try value(cat + #", "password": "p", "id": 1}"#))
        #expect(sent.errors.contains { $0.keyword == "readOnly" && $0.instanceLocation == "/id" })
        let response = try petSchema(.response)
        #expect(response.isValid(try value(cat + #", "id": 1}"#)))                    // password is writeOnly
        #expect(!response.isValid(try value(cat + #", "id": 1, "password": "p"}"#)))
        let neither = try petSchema(nil)
        #expect(!neither.isValid(try value(cat + #", "id": 1}"#)))                     // both required as written
    }
}
