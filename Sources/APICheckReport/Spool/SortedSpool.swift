import Foundation
import Synchronization

/// An external merge sort: values are appended in any order and read back sorted by
/// ``SortableSpoolRecord/precedes(_:_:)``, without duplicates, holding at most `runLength` of
/// them in memory (plus a read buffer per run).
///
/// Appended values collect in memory; each `runLength` of them is sorted and written to a
/// file (a run). Reading merges the runs and what is still in memory, smallest first. A spool
/// that never filled a run never touches the disk.
@usableFromInline package final class SortedSpool<Element: SortableSpoolRecord> {
    @usableFromInline let directory: SpoolDirectory
    @usableFromInline let runLength: Int
    @usableFromInline let name: String
    @usableFromInline var buffer: [Element] = []
    @usableFromInline var runs: [String] = []
    /// A run that could not be written, kept sorted in memory (nothing is lost).
    @usableFromInline var unwrittenRun: [Element] = []
    /// With background spilling: the run being sorted and written while appends go on.
    @usableFromInline var spilling: BackgroundSpill?
    @usableFromInline let spillQueue: DispatchQueue?
    /// Set when a run could not be written (the values then stay in memory: nothing is lost) or
    /// could not be opened again (``readFailure``: those values are lost). With background
    /// spilling, a run's failure is known from the next spill on, and surely after ``sorted()``.
    @usableFromInline package var failure: SpoolIOError?
    /// Set when a run could not be opened for the merge.
    @usableFromInline package var readFailure: SpoolIOError?
    @usableFromInline package var count = 0

    /// `spillsInBackground`: each run is sorted and written on another thread while the next
    /// one fills, so the appending thread (a crawl's consumer) does not wait for the disk; at
    /// most `runLength` values are still held, as each run is then half as long.
    @inlinable package init(directory: SpoolDirectory, runLength: Int = 65_536, name: String = "run", spillsInBackground: Bool = false) {
        self.directory = directory
        self.runLength = spillsInBackground ? max(1, runLength / 2) : max(1, runLength)
        self.name = name
        spillQueue = spillsInBackground ? DispatchQueue(label: "apicheck.spool.\(name)") : nil
    }

    deinit {
        spilling?.finished.wait()
    }

    @inlinable package func append(_ value: Element) {
        buffer.append(value)
        count += 1
        if buffer.count >= runLength, failure == nil { spill() }
    }

    @inlinable func spill() {
        guard let spillQueue else {
            switch Self.writeRun(buffer, directory: directory, name: name) {
            case .success(let path):
                runs.append(path)
                buffer.removeAll(keepingCapacity: true)
            case .failure(let error):
                failure = error
            }
            return
        }
        finishSpilling()
        guard failure == nil else { return }
        // The job holds the values until the appending thread takes them back: that thread
        // frees them (it made them: glibc's allocator locks an arena freed into from another
        // thread), or merges them when they could not be written.
        let job = BackgroundSpill(values: buffer)
        let (directory, name) = (directory, name)
        buffer = []
        buffer.reserveCapacity(runLength)
        spilling = job
        spillQueue.async {
            job.result = Self.writeRun(job.values, directory: directory, name: name)
            job.finished.signal()
        }
    }

    /// Waits for the run being written in the background, if any, and takes in its outcome.
    @inlinable func finishSpilling() {
        guard let job = spilling else { return }
        job.finished.wait()
        spilling = nil
        switch job.result {
        case .success(let path): runs.append(path)
        case .failure(let error):
            failure = error
            unwrittenRun = job.values
            unwrittenRun.sort(by: Element.precedes)
        case nil: break
        }
        job.values = []
    }

    /// Sorts `values` and writes them to a new run file; returns its path.
    @inlinable static func writeRun(_ buffer: [Element], directory: SpoolDirectory, name: String) -> Result<String, SpoolIOError> {
        do {
            let path = try directory.newFile(name)
            let writer = try SpoolFileWriter(path: path)
            // Sorts positions, not values: a record is large, an index is a word.
            try buffer.withUnsafeBufferPointer { values in
                var order = Array(0..<Int32(values.count))
                order.sort { Element.precedes(values[Int($0)], values[Int($1)]) }
                for position in order { try writer.append(values[Int(position)]) }
            }
            try writer.finish()
            return .success(path)
        } catch let error as SpoolIOError {
            return .failure(error)
        } catch {
            return .failure(SpoolIOError(message: "\(error)"))
        }
    }

    /// One run handed to the spill queue; read by the appending thread only after `finished`.
    @usableFromInline final class BackgroundSpill: @unchecked Sendable {
        @usableFromInline let finished = DispatchSemaphore(value: 0)
        @usableFromInline var result: Result<String, SpoolIOError>?
        @usableFromInline var values: [Element]
        @usableFromInline init(values: [Element]) { self.values = values }
    }

    /// Runs merged at once: each holds an open file and a read buffer.
    @usableFromInline static var mergeWidth: Int { 64 }

    /// The values, sorted and de-duplicated. Reads the runs once; call once.
    @inlinable package func sorted() -> SortedMerge<Element> {
        finishSpilling()
        buffer.sort(by: Element.precedes)
        // Too many runs to read at once: merge them into fewer, longer runs first.
        while runs.count > Self.mergeWidth, failure == nil {
            var longer: [String] = []
            for start in stride(from: 0, to: runs.count, by: Self.mergeWidth) {
                let batch = Array(runs[start..<min(start + Self.mergeWidth, runs.count)])
                do {
                    var merge = SortedMerge(sources: try batch.map { .file(try SpoolFileReader<Element>(path: $0)) }, keeping: directory)
                    let path = try directory.newFile(name)
                    let writer = try SpoolFileWriter(path: path)
                    while let value = merge.next() { try writer.append(value) }
                    try writer.finish()
                    if let failure = merge.failure { throw SpoolIOError(message: "\(failure)") }
                    for old in batch { unlink(old) }
                    longer.append(path)
                } catch {
                    failure = (error as? SpoolIOError) ?? SpoolIOError(message: "\(error)")
                    longer += batch
                }
            }
            runs = longer
        }
        var sources: [SortedMerge<Element>.Source] = []
        for path in runs {
            do {
                sources.append(.file(try SpoolFileReader<Element>(path: path)))
            } catch {
                readFailure = error
            }
        }
        // Read through the open descriptors: the disk space goes back as each run is read.
        for path in runs { unlink(path) }
        runs = []
        if !unwrittenRun.isEmpty { sources.append(.memory(unwrittenRun, 0)) }
        sources.append(.memory(buffer, 0))
        buffer = []
        unwrittenRun = []
        return SortedMerge(sources: sources, keeping: directory)
    }
}

/// Merges sorted sources into one sorted sequence, dropping values equal to the one before.
@usableFromInline package struct SortedMerge<Element: SortableSpoolRecord>: IteratorProtocol, Sequence {
    @usableFromInline enum Source {
        case file(SpoolFileReader<Element>)
        case memory([Element], Int)

        @inlinable mutating func next() -> Element? {
            switch self {
            case .file(let reader):
                return reader.next()
            case .memory(let values, let index):
                guard index < values.count else { return nil }
                self = .memory(values, index + 1)
                return values[index]
            }
        }

        @usableFromInline var failure: (any Error)? {
            if case .file(let reader) = self { return reader.failure }
            return nil
        }
    }

    @usableFromInline var sources: [Source]
    /// A binary min-heap of (head value, source index).
    @usableFromInline var heap: [(Element, Int)] = []
    @usableFromInline var last: Element?
    @usableFromInline let directory: SpoolDirectory

    @inlinable init(sources: [Source], keeping directory: SpoolDirectory) {
        self.sources = sources
        self.directory = directory
        for index in self.sources.indices {
            if let head = self.sources[index].next() { push((head, index)) }
        }
    }

    /// A source that could not be read to its end, if any (checked once the merge is done).
    @usableFromInline package var failure: (any Error)? { sources.lazy.compactMap(\.failure).first }

    @inlinable package mutating func next() -> Element? {
        while let (value, source) = pop() {
            if let following = sources[source].next() { push((following, source)) }
            if let last, last == value { continue }
            last = value
            return value
        }
        return nil
    }

    @inlinable mutating func push(_ item: (Element, Int)) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.less(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    @inlinable mutating func pop() -> (Element, Int)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, Self.less(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, Self.less(heap[right], heap[smallest]) { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }

    /// Ties go to the earlier source, so equal values come out in the order they went in.
    @inlinable static func less(_ lhs: (Element, Int), _ rhs: (Element, Int)) -> Bool {
        if Element.precedes(lhs.0, rhs.0) { return true }
        if Element.precedes(rhs.0, lhs.0) { return false }
        return lhs.1 < rhs.1
    }
}

/// Spooled records that learn why a pass over them stopped early.
@usableFromInline package protocol SpoolReadFailures: AnyObject, Sendable {
    func recordFailure(_ error: any Error)
}

/// Values written in order to one spool file, read back as often as needed.
@usableFromInline package final class SpooledRecords<Element: SpoolReadable>: Sequence, SpoolReadFailures, @unchecked Sendable {
    @usableFromInline let path: String
    @usableFromInline package let count: Int
    @usableFromInline let directory: SpoolDirectory

    /// Records already written to `path` by a ``SpoolFileWriter``.
    @inlinable package convenience init(finishedFile path: String, count: Int, directory: SpoolDirectory) {
        self.init(finishedFile: path, count: count, directory: directory, failuresAlsoTo: nil)
    }

    /// Why the last reading stopped early, if it did (a file removed or damaged under the
    /// process): a report written from these records is then incomplete.
    @usableFromInline package var readFailure: String? { failure.withLock { $0 } }
    private let failure = Mutex<String?>(nil)

    @usableFromInline package func makeIterator() -> Iterator {
        do {
            return Iterator(reader: try SpoolFileReader<Element>(path: path), records: self)
        } catch {
            recordFailure(error)
            return Iterator(reader: nil, records: self)
        }
    }

    /// The same records read as `Part`, a record that decodes the start of each and skips the
    /// rest. A failure to read them is recorded here too (``readFailure``).
    @usableFromInline package func reading<Part: SpoolReadable>(as part: Part.Type) -> SpooledRecords<Part> {
        SpooledRecords<Part>(finishedFile: path, count: count, directory: directory, failuresAlsoTo: self)
    }

    @usableFromInline init(finishedFile path: String, count: Int, directory: SpoolDirectory, failuresAlsoTo whole: (any SpoolReadFailures)?) {
        self.path = path
        self.count = count
        self.directory = directory
        self.whole = whole
    }

    /// The records this is a view of (``reading(as:)``), which learn of its failures.
    @usableFromInline let whole: (any SpoolReadFailures)?

    @usableFromInline package func recordFailure(_ error: any Error) {
        failure.withLock { $0 = "\(error)" }
        whole?.recordFailure(error)
    }

    @usableFromInline package struct Iterator: IteratorProtocol {
        let reader: SpoolFileReader<Element>?
        let records: SpooledRecords<Element>

        @usableFromInline package mutating func next() -> Element? {
            if let value = reader?.next() { return value }
            if let error = reader?.failure { records.recordFailure(error) }
            return nil
        }
    }
}
