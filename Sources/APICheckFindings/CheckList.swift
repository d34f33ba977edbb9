import APICheckModel
import APICheckSpool

/// A report's checks, in report order: in memory, or, for a large crawl, in a temporary file
/// that is read back each time the report is written (a million-resource crawl has millions of
/// checks; they are never all in memory at once).
///
/// It is a `Sequence`: iterate it, or make an `Array` of it when it is known to be small.
public struct CheckList: Sequence, Sendable, Hashable, ExpressibleByArrayLiteral {
    enum Storage: Sendable {
        case memory([CheckedLink])
        case spooled(SpooledRecords<CheckedLink>)
    }

    let storage: Storage
    /// Applied to each spooled check as it is read (a redaction of a spooled report).
    private var transform: (@Sendable (CheckedLink) -> CheckedLink)?
    /// The redaction every check has already been through, when known: applying it again
    /// changes nothing, so ``Redaction/report(_:)`` skips the pass.
    package var redaction: Redaction?
    /// How many checks there are.
    public let count: Int
    /// Checks held in memory, in the order given (``CrawlReport`` sorts them).
    public init(_ checks: [CheckedLink]) {
        storage = .memory(checks)
        count = checks.count
    }

    public init(arrayLiteral elements: CheckedLink...) {
        self.init(elements)
    }

    init(spooled records: SpooledRecords<CheckedLink>) {
        storage = .spooled(records)
        count = records.count
    }

    /// Why the checks could not all be read back from their temporary file the last time they
    /// were, if so: a report written then is incomplete.
    package var readFailure: String? {
        if let inheritedFailure { return inheritedFailure }
        if case .spooled(let records) = storage { return records.readFailure }
        return nil
    }

    /// Why the list this one was filtered from could not be read whole, if so.
    package var inheritedFailure: String?

    /// Whether there are no checks.
    public var isEmpty: Bool { count == 0 }

    /// Whether the checks are in a temporary file rather than in memory.
    package var isSpooled: Bool {
        if case .spooled = storage { return true }
        return false
    }

    /// Each spooled check's rel path labels, in order, read without decoding the rest of each
    /// check (the report's `paths` table reads every check once more); `nil` when the checks are
    /// in memory or are transformed as they are read.
    package var relPathLabels: LazyMapSequence<SpooledRecords<CheckedLink.RelPathLabels>, [String]>? {
        guard case .spooled(let records) = storage, transform == nil else { return nil }
        return records.reading(as: CheckedLink.RelPathLabels.self).lazy.map(\.labels)
    }

    /// The checks held in memory, if they are.
    var inMemory: [CheckedLink]? {
        if case .memory(let checks) = storage { return checks }
        return nil
    }

    public func makeIterator() -> Iterator {
        switch storage {
        case .memory(let checks): Iterator(source: .memory(checks.makeIterator()), transform: nil)
        case .spooled(let records): Iterator(source: .spooled(records.makeIterator()), transform: transform)
        }
    }

    /// The checks sorted in report order, without duplicates (for checks in memory).
    package func sortedRemovingDuplicates() -> [CheckedLink] {
        var checks = Array(self)
        checks.sortRemovingDuplicates(by: CheckedLink.precedes)
        return checks
    }

    /// The checks with `transform` applied to each: now for checks in memory, as they are read
    /// for spooled ones. The order must not change.
    package func mapped(_ transform: @escaping @Sendable (CheckedLink) -> CheckedLink) -> CheckList {
        switch storage {
        case .memory(let checks):
            return CheckList(checks.map(transform))
        case .spooled:
            var result = self
            if let first = self.transform {
                result.transform = { @Sendable check in transform(first(check)) }
            } else {
                result.transform = transform
            }
            result.redaction = nil
            return result
        }
    }

    public struct Iterator: IteratorProtocol {
        enum Source {
            case memory(IndexingIterator<[CheckedLink]>)
            case spooled(SpooledRecords<CheckedLink>.Iterator)
        }

        var source: Source
        var transform: (@Sendable (CheckedLink) -> CheckedLink)?

        public mutating func next() -> CheckedLink? {
            switch source {
            case .memory(var iterator):
                defer { source = .memory(iterator) }
                return iterator.next()
            case .spooled(var iterator):
                defer { source = .spooled(iterator) }
                guard let check = iterator.next() else { return nil }
                return transform.map { $0(check) } ?? check
            }
        }
    }

    public static func == (lhs: CheckList, rhs: CheckList) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for check in self { hasher.combine(check) }
    }
}

/// Collects checks that arrive in report order: in memory up to `memoryLimit` of them, then in a
/// temporary file.
package final class CheckListBuilder {
    private let directory: SpoolDirectory
    private let memoryLimit: Int
    private var checks: [CheckedLink] = []
    private var writer: SpoolFileWriter?
    /// Set when the file could not be written; later checks then stay in memory, the report is
    /// incomplete and says so (the crawl exits 2).
    package private(set) var failure: SpoolIOError?

    private let redaction: Redaction?

    /// `redaction`: the one every appended check has been through, if any.
    package init(directory: SpoolDirectory, memoryLimit: Int, redaction: Redaction? = nil) {
        self.directory = directory
        self.memoryLimit = memoryLimit
        self.redaction = redaction
    }

    package func append(_ check: CheckedLink) {
        if let writer {
            do {
                try writer.append(check)
                return
            } catch {
                failure = error
                self.writer = nil
            }
        }
        checks.append(check)
        if checks.count > memoryLimit, failure == nil { spill() }
    }

    private func spill() {
        do {
            let writer = try SpoolFileWriter(path: try directory.newFile("checks"))
            for check in checks { try writer.append(check) }
            checks = []
            self.writer = writer
        } catch let error as SpoolIOError {
            failure = error
        } catch {
            failure = SpoolIOError(message: "\(error)")
        }
    }

    package func finish() -> CheckList {
        var list: CheckList
        if let writer {
            do {
                try writer.finish()
                list = CheckList(spooled: SpooledRecords(finishedFile: writer.path, count: writer.count, directory: directory))
            } catch {
                failure = error
                list = CheckList([])
            }
        } else {
            list = CheckList(checks)
        }
        list.redaction = redaction
        return list
    }
}
