import Foundation
import Synchronization

/// Spooled records that learn why a pass over them stopped early.
@usableFromInline package protocol SpoolReadFailures: AnyObject, Sendable {
    func recordFailure(_ error: any Error)
}

/// Values written in order to one spool file, read back as often as needed.
@usableFromInline package final class SpooledRecords<Element: SpoolReadable>: Sequence, SpoolReadFailures, @unchecked Sendable {
    @usableFromInline package let path: String
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
