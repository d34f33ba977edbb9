@testable import APICheckSchema
import APICheckJSON
import Testing

@Suite struct DecimalNumberTests {
    func number(_ lexeme: String) -> DecimalNumber { DecimalNumber(lexeme: lexeme)! }

    @Test func parsesToCanonicalForm() {
        #expect(number("1.0") == number("1"))
        #expect(number("1.50e+3") == number("1500"))
        #expect(number("-0.0") == .zero)
        #expect(number("0.001") == number("1e-3"))
        #expect(number("12345678901234567890.5").significandDigits.count == 21)
        #expect(number("1e99999999999999999999") != number("1"))
    }

    @Test func comparesExactlyAtAnySize() {
        #expect(DecimalNumber.compare(number("12345678901234567890.5"), number("12345678901234567890.4")) == 1)
        #expect(DecimalNumber.compare(number("1e308"), number("9.99e307")) == 1)
        #expect(DecimalNumber.compare(number("-1e-300"), number("0")) == -1)
        #expect(DecimalNumber.compare(number("0.1"), number("0.10000000000000001")) == -1)
        #expect(DecimalNumber.compare(number("100"), number("1e2")) == 0)
        #expect(DecimalNumber.compare(number("1e1000"), number("1e999")) == 1)
    }

    @Test func integersIncludeIntegralDecimals() {
        #expect(number("1.0").isInteger)
        #expect(number("1e1000").isInteger)
        #expect(!number("1.5").isInteger)
        #expect(!number("1e-5").isInteger)
    }

    @Test func multipleOfIsExact() {
        #expect(number("0.0075").isMultiple(of: number("0.0001")) == true)
        #expect(number("19.99").isMultiple(of: number("0.01")) == true)
        #expect(number("19.999").isMultiple(of: number("0.01")) == false)
        // 10^308 / 0.123 = 10^311 / 123 is not an integer; answered in O(log) steps.
        #expect(number("1e308").isMultiple(of: number("0.123")) == false)
        #expect(number("1e308").isMultiple(of: number("0.125")) == true)
        #expect(number("1e-300").isMultiple(of: number("1e-301")) == true)
        #expect(number("1e-300").isMultiple(of: number("3e-301")) == false)
        #expect(number("123456789012345678901234567890").isMultiple(of: number("10")) == true)
        #expect(number("9" + String(repeating: "0", count: 40)).isMultiple(of: number("3")) == true)
        #expect(number("1e1000000000").isMultiple(of: number("7")) == false)
        #expect(number("1e1000000000").isMultiple(of: number("0.5")) == true)
        // A divisor beyond 19 digits takes the long-division path.
        #expect(number("246913578024691357802469135780").isMultiple(of: number("123456789012345678901234567890")) == true)
        #expect(number("246913578024691357802469135781").isMultiple(of: number("123456789012345678901234567890")) == false)
    }

    @Test func schemaComparesLexemesExactly() throws {
        let schema = try JSONSchema(.object(["minimum": .number("12345678901234567890.5"), "multipleOf": .number("0.5")]))
        #expect(schema.isValid(.number("12345678901234567891")))
        #expect(!schema.isValid(.number("12345678901234567890")))
        #expect(!schema.isValid(.number("12345678901234567891.25")))
        let enumeration = try JSONSchema(.object(["enum": [.number("1.0"), .number("1e308")], "type": "integer"]))
        #expect(enumeration.isValid(.number("1")))
        #expect(enumeration.isValid(.number("10e307")))
        #expect(!enumeration.isValid(.number("1.0000000000000000001")))
        let unique = try JSONSchema(.object(["uniqueItems": true]))
        #expect(!unique.isValid([.number("1"), .number("1.0")]))
        #expect(!unique.isValid([.object(["a": 1, "b": 2]), .object(["b": 2, "a": .number("1.00")])]))
        #expect(unique.isValid([.number("1"), .bool(true)]))
    }
}
