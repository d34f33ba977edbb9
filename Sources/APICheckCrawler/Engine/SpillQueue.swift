import APICheckSpool

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A first-in, first-out queue that keeps its first `memoryLimit` values in memory and writes the
/// rest to a temporary file: a breadth-first crawl's next level can be hundreds of thousands of
/// URLs wide.
@usableFromInline package final class SpillQueue<Element: SpoolRecord> {
    @usableFromInline let directory: SpoolDirectory
    @usableFromInline let memoryLimit: Int
    @usableFromInline var head: [Element] = []
    @usableFromInline var writer: SpoolFileWriter?
    /// Set when the file could not be written: later values stay in memory, what the file held
    /// is lost, and the caller reports the crawl incomplete.
    @usableFromInline package var failure: SpoolIOError?
    @usableFromInline package var count = 0

    @inlinable package init(directory: SpoolDirectory, memoryLimit: Int) {
        self.directory = directory
        self.memoryLimit = memoryLimit
    }

    @inlinable package func append(_ value: Element) {
        count += 1
        if let writer {
            do {
                try writer.append(value)
                return
            } catch {
                failure = error
                self.writer = nil  // what it wrote is lost with it: reported as a failure
            }
        }
        head.append(value)
        if head.count > memoryLimit, writer == nil, failure == nil {
            do {
                writer = try SpoolFileWriter(path: try directory.newFile("queue"))
            } catch {
                failure = (error as? SpoolIOError) ?? SpoolIOError(message: "\(error)")
            }
        }
    }

    /// The values in the order they were appended; the queue is empty afterwards.
    @inlinable package func drain() -> Drain {
        defer {
            head = []
            writer = nil
            count = 0
        }
        var reader: SpoolFileReader<Element>?
        if let writer {
            do {
                try writer.finish()
                reader = try SpoolFileReader<Element>(path: writer.path)
                unlink(writer.path)  // read through the open descriptor; gone from the disk when read
            } catch {
                failure = error
            }
        }
        return Drain(head: head, reader: reader, count: count)
    }

    /// A drained queue's values, read once, in order.
    @usableFromInline package struct Drain: IteratorProtocol, Sequence {
        @usableFromInline var head: [Element]
        @usableFromInline var position = 0
        @usableFromInline let reader: SpoolFileReader<Element>?
        /// How many values there are.
        @usableFromInline package let count: Int

        @inlinable init(head: [Element], reader: SpoolFileReader<Element>?, count: Int) {
            self.head = head
            self.reader = reader
            self.count = count
        }

        @inlinable package mutating func next() -> Element? {
            if position < head.count {
                defer { position += 1 }
                return head[position]
            }
            if !head.isEmpty { head = [] }  // read: let it go
            return reader?.next()
        }

        /// Set when the file could not be read to its end.
        @usableFromInline package var failure: (any Error)? { reader?.failure }
    }
}
