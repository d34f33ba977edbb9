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

    @Test func aJournalOfNoCapacityKeepsNothing() {
        for journal in [StubJournal.none, StubJournal(capacity: 0, shards: 4)] {
            for index in 0..<5 { journal.record(entry("/\(index)"), shard: index) }
            #expect(journal.count == 0)
            #expect(journal.all.isEmpty)
            #expect(journal.entries(offset: 0, limit: 10).total == 0)
        }
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

/// The journal bounded in bytes, not only in entries (issue #19: a server's journal held 230 MB
/// after 30 uploads of 7 MB).
@Suite struct StubJournalByteBoundTests {
    private func entry(_ size: Int, byte: UInt8 = 65) -> JournalEntry {
        JournalEntry(
            request: StubRequest(method: "PUT", url: URL(string: "http://h/a")!, body: Data(repeating: byte, count: size)),
            url: URL(string: "http://h/a")!, outcome: .passedThrough)
    }

    @Test func bodiesAreKeptAsPrefixesWithTheirSize() {
        let journal = StubJournal(capacity: 10, maximumBodyBytes: 4)
        journal.record(entry(10))
        journal.record(entry(3))
        #expect(journal.all.map(\.request.body.count) == [4, 3])
        #expect(journal.all.map(\.bodyByteCount) == [10, 3])
        #expect(journal.all.map(\.isBodyTruncated) == [true, false])
    }

    @Test func theOldestEntriesGoWhenTheBytesRunOut() {
        let journal = StubJournal(capacity: 100, maximumBodyBytes: 10, maximumBytes: 25)
        for index in 0..<6 { journal.record(entry(10, byte: UInt8(65 + index))) }
        #expect(journal.count == 2)
        #expect(journal.all.map { $0.request.body.first } == [69, 70])
        // Small entries fill in again after large ones.
        for _ in 0..<5 { journal.record(entry(1)) }
        #expect(journal.count == 7)
        #expect(journal.all.prefix(2).map { $0.request.body.first } == [69, 70])
    }

    @Test func aNearMissReportKeepsOnlyThePrefixToo() {
        let journal = StubJournal(capacity: 10, maximumBodyBytes: 4)
        let request = StubRequest(method: "PUT", url: URL(string: "http://h/a")!, body: Data(repeating: 66, count: 1_000))
        journal.record(JournalEntry(request: request, url: URL(string: "http://h/a")!, outcome: .unmatched(NearMissReport(request: request, nearMisses: []))))
        guard case .unmatched(let report)? = journal.all.first?.outcome else {
            Issue.record("the entry keeps its near-miss report")
            return
        }
        #expect(report.request.body.count == 4)
    }
}
