import Testing

@testable import APICheckCrawler

@Suite struct ResourceIndexTests {
    /// The index is 256 dictionaries: every key is found in its own, and the count is the sum
    /// whatever was inserted, overwritten or removed.
    @Test func theShardedTableActsAsOneDictionary() {
        var table = SummaryTable()
        var reference: [URLKey: ResourceSummary] = [:]
        let keys = (0..<5000).map { URLKey(normalised: "http://h/r/\($0)") }
        #expect(Set(keys.map(\.shard)).count == 256, "keys spread over every shard")
        for (index, key) in keys.enumerated() {
            let summary = ResourceSummary(state: .response, status: Int16(200 + index % 300))
            table[key] = summary
            reference[key] = summary
        }
        for key in keys.prefix(1000) {
            table[key] = ResourceSummary(state: .failed)
            reference[key] = ResourceSummary(state: .failed)
        }
        for key in keys.suffix(500) {
            table[key] = nil
            reference[key] = nil
        }
        #expect(table.count == reference.count && table.count == 4500)
        for key in keys { #expect(table[key]?.state == reference[key]?.state && table[key]?.status == reference[key]?.status) }
        #expect(table[URLKey(normalised: "http://h/elsewhere")] == nil)
    }
}
