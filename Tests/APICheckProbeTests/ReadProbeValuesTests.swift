import APICheckProbe
import Testing

@Suite struct ReadProbeValuesTests {
    @Test func integerIdsGetTheFullListInOrder() {
        let values = ReadProbeValues.values(for: "id", observed: ["1", "2", "3", "4", "5", "6"], limit: 100)
        #expect(values.map(\.label) == [
            "one past the largest id (7)", "0", "-1", "beyond Int64", "not a number", "empty", "percent-encoded Unicode",
            "path traversal", "path traversal (raw ../)", "2,000 characters", "NUL",
        ])
        #expect(values.first?.value == "7")
        #expect(values.map(\.value).contains("%C3%A9t%C3%A9%F0%9F%93%9A"))
        #expect(values.first { $0.label == "2,000 characters" }?.value.count == 2_000)
    }

    @Test func onePastTheLargestComparesNumbersNotText() {
        #expect(ReadProbeValues.values(for: "id", observed: ["9", "10", "2"], limit: 1).first?.value == "11")
        #expect(ReadProbeValues.values(for: "id", observed: ["99999999999999999999"], limit: 1).first?.value == "100000000000000000000")
    }

    @Test func beyondInt64IsBeyondInt64() throws {
        let value = try #require(ReadProbeValues.values(for: "id", observed: ["1"], limit: 20).first { $0.label == "beyond Int64" }?.value)
        #expect(value.allSatisfy { $0.isNumber })
        #expect(Int64(value) == nil)
        #expect(value.count > String(Int64.max).count)
    }

    @Test func aGapBetweenIdsIsTriedLast() {
        let values = ReadProbeValues.values(for: "id", observed: ["1", "2", "4"], limit: 100)
        #expect(values.last == ReadProbeValue(value: "3", label: "a gap between the ids seen (3)"))
    }

    @Test func observedValuesAreNeverProbes() {
        let values = ReadProbeValues.values(for: "id", observed: ["0", "1"], limit: 100).map(\.value)
        #expect(!values.contains("0"))
        #expect(values.first == "2")
    }

    @Test func uuidsGetAnUnseenUUID() {
        let observed = ["0B7C2F1E-3A4D-4C5B-9E8F-112233445566"]
        let values = ReadProbeValues.values(for: "id", observed: observed, limit: 100)
        #expect(values.first?.label == "an unseen UUID")
        #expect(values.first?.value.count == 36)
        #expect(values.first?.value == values.first?.value.uppercased())
        #expect(values.contains(ReadProbeValue(value: "abc", label: "not a UUID")))
    }

    @Test func otherShapesChangeTheLastCharacter() {
        let values = ReadProbeValues.values(for: "slug", observed: ["abc1", "abc2"], limit: 100)
        #expect(values.first == ReadProbeValue(value: "abc3", label: "an unseen id like the seen ones (abc3)"))
        #expect(!values.contains { $0.label == "not a number" })
        let hex = ReadProbeValues.values(for: "id", observed: ["507f1f77bcf86cd79943901f"], limit: 1)
        #expect(hex.first?.value == "507f1f77bcf86cd79943901a")
    }

    @Test func withoutObservedValuesThereIsNoUnseenId() {
        let values = ReadProbeValues.values(for: "id", observed: [], limit: 2)
        #expect(values.map(\.label) == ["0", "-1"])
    }

    @Test func theLimitTakesTheFirst() {
        let all = ReadProbeValues.values(for: "id", observed: ["1"], limit: 100)
        #expect(ReadProbeValues.values(for: "id", observed: ["1"], limit: 3) == Array(all.prefix(3)))
        #expect(ReadProbeValues.values(for: "id", observed: ["1"], limit: 0).isEmpty)
        #expect(ReadProbeValues.values(for: "id", observed: ["1"], limit: 100) == all)
    }
}
