import APICheckJSON
import APICheckProbe
import Testing

@Suite struct ProbeShrinkerTests {
    /// `{"f0": "value 0", …, "f11": "value 11"}`.
    static let twelveFields: JSONValue = .object((0..<12).map { JSONMember("f\($0)", .string("value \($0)")) })

    static func keys(_ body: JSONValue) -> [String] {
        guard case .object(let members) = body else { return [] }
        return members.map(\.key)
    }

    @Test func findsTheOneCulpritAmongTwelveWithinBudget() async {
        var calls = 0
        let (body, attempts) = await ProbeShrinker.shrink(Self.twelveFields, maximumAttempts: 40) { candidate in
            calls += 1
            return candidate["f7"] != nil
        }
        #expect(Self.keys(body) == ["f7"])
        #expect(body["f7"] == "")
        #expect(attempts == calls && attempts <= 40)
    }

    @Test func findsAPair() async {
        let (body, attempts) = await ProbeShrinker.shrink(Self.twelveFields, maximumAttempts: 100) { candidate in
            candidate["f2"] != nil && candidate["f9"] != nil
        }
        #expect(Self.keys(body) == ["f2", "f9"])
        #expect(attempts <= 100)
    }

    @Test func neverAsksMoreThanTheBudget() async {
        for budget in [0, 1, 3, 10] {
            var calls = 0
            let (body, attempts) = await ProbeShrinker.shrink(Self.twelveFields, maximumAttempts: budget) { candidate in
                calls += 1
                return candidate["f2"] != nil && candidate["f9"] != nil
            }
            #expect(calls == attempts && attempts <= budget)
            #expect(body["f2"] != nil && body["f9"] != nil)
        }
    }

    @Test func returnsTheOriginalWhenNothingSmallerFails() async {
        let (body, attempts) = await ProbeShrinker.shrink(Self.twelveFields, maximumAttempts: 1_000) { candidate in
            candidate == Self.twelveFields
        }
        #expect(body == Self.twelveFields)
        #expect(attempts > 0 && attempts <= 1_000)
    }

    @Test func shrinksALongStringToOneCharacter() async {
        let long = String(repeating: "x", count: 10_000)
        let original: JSONValue = .object([JSONMember("year", 1979), JSONMember("note", .string(long)), JSONMember("seen", true)])
        let (body, attempts) = await ProbeShrinker.shrink(original, maximumAttempts: 60) { candidate in
            if case .string(let text)? = candidate["note"] { !text.isEmpty } else { false }
        }
        #expect(body == .object([JSONMember("note", "x")]))
        #expect(attempts <= 60)
    }

    @Test func simplifiesNumbersTowardZero() async {
        let original: JSONValue = .object([JSONMember("year", 90_000), JSONMember("title", "Alien")])
        let (body, _) = await ProbeShrinker.shrink(original, maximumAttempts: 100) { candidate in
            if case .number(let lexeme)? = candidate["year"], let year = Int(lexeme) { year > 2100 } else { false }
        }
        guard case .number(let lexeme)? = body["year"], let year = Int(lexeme) else {
            Issue.record("year went missing: \(body)")
            return
        }
        #expect(year > 2100 && year < 5_000)
        #expect(Self.keys(body) == ["year"])
    }

    @Test func shrinksInsideNestedValuesAndNonObjectBodies() async {
        let array: JSONValue = .array((0..<10).map { .number(String($0 * 10)) })
        let (smallest, _) = await ProbeShrinker.shrink(array, maximumAttempts: 100) { candidate in
            guard case .array(let elements) = candidate else { return false }
            return elements.contains(70)
        }
        #expect(smallest == [70])

        let text: JSONValue = .string("abc\u{0000}def")
        let (shortest, _) = await ProbeShrinker.shrink(text, maximumAttempts: 100) { candidate in
            if case .string(let value) = candidate { value.unicodeScalars.contains("\u{0000}") } else { false }
        }
        #expect(shortest == .string("\u{0000}"))

        let nested: JSONValue = .object([
            JSONMember("a", 1), JSONMember("tags", ["x", "y", "bad", "z"]), JSONMember("b", 2),
        ])
        let (inner, _) = await ProbeShrinker.shrink(nested, maximumAttempts: 100) { candidate in
            guard case .array(let tags)? = candidate["tags"] else { return false }
            return tags.contains("bad")
        }
        #expect(inner == .object([JSONMember("tags", ["bad"])]))
    }

    @Test func isDeterministic() async {
        let predicate: (JSONValue) async -> Bool = { $0["f3"] != nil || $0["f10"] != nil }
        let first = await ProbeShrinker.shrink(Self.twelveFields, maximumAttempts: 50, stillFails: predicate)
        let second = await ProbeShrinker.shrink(Self.twelveFields, maximumAttempts: 50, stillFails: predicate)
        #expect(first.body == second.body && first.attempts == second.attempts)
    }
}
