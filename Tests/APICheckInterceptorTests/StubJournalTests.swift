import APICheckModel
import APICheckResponder
import Foundation
import Testing

@Suite struct StubJournalTests {
    private func entry(_ path: String) -> JournalEntry {
        JournalEntry(request: StubRequest(method: "GET", path: path), origin: "http://127.0.0.1:8080", target: path, outcome: .passedThrough)
    }

    private func paths(_ entries: [JournalEntry]) -> [String] { entries.map(\.request.path) }

    @Test func oneShardKeepsTheNewestEntriesInOrder() {
        let journal = StubJournal(capacity: 3)
        for index in 0..<5 { journal.record(entry("/\(index)")) }
        #expect(journal.count == 3)
        #expect(paths(journal.all) == ["/2", "/3", "/4"])
        let page = journal.entries(offset: 1, limit: 5)
        #expect(page.total == 3)
        #expect(paths(page.entries) == ["/3", "/4"])
    }

    @Test func shardsMergeInRecordingOrder() {
        let journal = StubJournal(capacity: 100, shards: 3)
        #expect(journal.shardCount == 3)
        // Interleaved over the shards, as event loops would record them.
        let shardOfEach = [0, 2, 2, 1, 0, 1, 2, 0]
        for (index, shard) in shardOfEach.enumerated() { journal.record(entry("/\(index)"), shard: shard) }
        #expect(journal.count == 8)
        #expect(paths(journal.all) == (0..<8).map { "/\($0)" })
        #expect(paths(journal.entries(offset: 3, limit: 3).entries) == ["/3", "/4", "/5"])
        #expect(journal.entries(offset: 7, limit: 10).entries.count == 1)
        #expect(journal.entries(offset: 9, limit: 10).entries.isEmpty)
    }

    @Test func shardedJournalDropsTheOldestAcrossShardsBeyondCapacity() {
        let journal = StubJournal(capacity: 4, shards: 2)
        // Shard 0 gets every request: it alone must still keep the newest `capacity`.
        for index in 0..<6 { journal.record(entry("/a\(index)"), shard: 0) }
        #expect(paths(journal.all) == ["/a2", "/a3", "/a4", "/a5"])
        journal.record(entry("/b0"), shard: 1)
        journal.record(entry("/b1"), shard: 1)
        #expect(journal.count == 4)
        #expect(paths(journal.all) == ["/a4", "/a5", "/b0", "/b1"])
        let page = journal.entries(offset: 1, limit: 2)
        #expect(page.total == 4)
        #expect(paths(page.entries) == ["/a5", "/b0"])
        // Any shard number is accepted (taken modulo the shard count).
        journal.record(entry("/c"), shard: 7)
        #expect(paths(journal.all).last == "/c")
        journal.clear()
        #expect(journal.count == 0)
        #expect(journal.all.isEmpty)
    }

    @Test func concurrentWritersOnTheirOwnShardsLoseNothing() async {
        let journal = StubJournal(capacity: 10_000, shards: 4)
        await withTaskGroup(of: Void.self) { group in
            for shard in 0..<4 {
                group.addTask {
                    for index in 0..<500 { journal.record(self.entry("/\(shard)/\(index)"), shard: shard) }
                }
            }
        }
        let all = paths(journal.all)
        #expect(all.count == 2000)
        #expect(Set(all).count == 2000)
        // Each writer's own entries stay in the order it recorded them.
        for shard in 0..<4 {
            let own = all.filter { $0.hasPrefix("/\(shard)/") }
            #expect(own == (0..<500).map { "/\(shard)/\($0)" })
        }
    }
}
