import APICheckJSON
import APICheckSchema

/// `schema`: a JSON Schema compiled and used. The input is a schema document, a line holding
/// only `--`, then instances, one per line; the first byte picks the draft and format assertion.
///
/// Invariants: compiling gives a schema or a located error (inside the schema's lines), never a
/// crash or a hang (recursion, `$ref` cycles and patterns are bounded); for every instance,
/// `isValid` agrees with `validate(...).valid`, an invalid result has errors, each error's
/// instance location resolves in the instance, and validating again gives the same output.
enum SchemaFuzzer {
    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let selector = input.byte()
        let bytes = Array(input.rest)
        let separator = Array("\n--\n".utf8)
        var schemaBytes = bytes
        var instanceLines: [ArraySlice<UInt8>] = []
        if let cut = firstRange(of: separator, in: bytes) {
            schemaBytes = Array(bytes[..<cut.lowerBound])
            instanceLines = bytes[cut.upperBound...].split(separator: 0x0A, maxSplits: 16)
        }
        guard let node = try? JSONParser(maximumDepth: 64).parse(schemaBytes) else { return }
        var options = JSONSchemaOptions()
        options.defaultDraft = JSONSchemaDraft.allCases[Int(selector) % JSONSchemaDraft.allCases.count]
        options.formatAssertion = selector & 0x80 != 0
        options.regexStepBudget = 10_000
        let schema: JSONSchema
        do {
            schema = try JSONSchema(node, file: "fuzz.json", options: options)
        } catch {
            if let line = error.line {
                FuzzCheck.require(line >= 1 && line <= FuzzCheck.lineBound(schemaBytes), "schema error located outside the schema: \(error)")
            }
            return
        }
        for line in instanceLines {
            guard let instance = try? JSONParser(maximumDepth: 64).parseValue(Array(line)) else { continue }
            let fast = schema.isValid(instance)
            let output = schema.validate(instance)
            FuzzCheck.require(fast == output.valid, "isValid (\(fast)) and validate (\(output.valid)) disagree")
            FuzzCheck.require(output.valid || !output.errors.isEmpty, "an invalid instance without errors")
            for unit in output.errors {
                FuzzCheck.require(instance.value(at: unit.instanceLocation) != nil, "error at \(unit.instanceLocation), which is not in the instance")
            }
            FuzzCheck.require(schema.validate(instance) == output, "validating twice gives different output")
        }
    }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start..<(start + needle.count)
        }
        return nil
    }
}
