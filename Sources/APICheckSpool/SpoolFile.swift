import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A private temporary folder for one crawl's spool files, removed with its last reference.
///
/// It is created on first use under `TMPDIR` (mode 0700), so a crawl small enough to stay in
/// memory never touches the disk.
@usableFromInline package final class SpoolDirectory: @unchecked Sendable {
    private let lock = NSLock()
    private var path: String?
    private var counter = 0
    private let parent: String

    /// A folder under `parent` (default: the system's temporary folder).
    @usableFromInline package init(parent: String? = nil) {
        self.parent = parent ?? FileManager.default.temporaryDirectory.path
    }

    /// A new file name in the folder; creates the folder the first time.
    @usableFromInline package func newFile(_ stem: String) throws -> String {
        try lock.withLock {
            if path == nil {
                let candidate = parent + "/apicheck-spool-" + UUID().uuidString
                guard mkdir(candidate, 0o700) == 0 else {
                    throw SpoolIOError(message: "cannot create the temporary folder \(candidate): \(String(cString: strerror(errno))); set TMPDIR to a writable folder")
                }
                path = candidate
            }
            counter += 1
            return "\(path!)/\(stem)-\(counter)"
        }
    }

    deinit {
        if let path { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// Writing or reading a spool file failed (disk full, folder removed).
@usableFromInline package struct SpoolIOError: Error, CustomStringConvertible {
    @usableFromInline package var message: String
    @inlinable package init(message: String) { self.message = message }
    @usableFromInline package var description: String { message }
}

/// Appends framed records (a varint length, then the record) to a file, through a buffer.
@usableFromInline package final class SpoolFileWriter {
    @usableFromInline package let path: String
    @usableFromInline var descriptor: Int32
    @usableFromInline var buffer: SpoolEncoder
    @usableFromInline var record = SpoolEncoder()
    @usableFromInline static let flushBytes = 1 << 20
    @usableFromInline package var count = 0

    @inlinable package init(path: String) throws(SpoolIOError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw SpoolIOError(message: "cannot create \(path): \(String(cString: strerror(errno)))") }
        buffer = SpoolEncoder()
        buffer.bytes.reserveCapacity(Self.flushBytes + 4096)
    }

    @inlinable package func append(_ value: some SpoolRecord) throws(SpoolIOError) {
        record.bytes.removeAll(keepingCapacity: true)
        value.encode(into: &record)
        buffer.unsigned(UInt64(record.bytes.count))
        buffer.bytes.append(contentsOf: record.bytes)
        count += 1
        if buffer.bytes.count >= Self.flushBytes { try flush() }
    }

    @inlinable func flush() throws(SpoolIOError) {
        var written = 0
        let total = buffer.bytes.count
        while written < total {
            let result = buffer.bytes.withUnsafeBytes { raw in write(descriptor, raw.baseAddress! + written, total - written) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw SpoolIOError(message: "cannot write \(path): \(String(cString: strerror(errno))); free disk space or set TMPDIR") }
            written += result
        }
        buffer.bytes.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes the file.
    @inlinable package func finish() throws(SpoolIOError) {
        guard descriptor >= 0 else { return }
        defer {
            closeDescriptor(descriptor)
            descriptor = -1
        }
        try flush()
    }

    deinit {
        if descriptor >= 0 { closeDescriptor(descriptor) }
    }
}

/// Reads the framed records of a spool file in order, a chunk at a time.
@usableFromInline package final class SpoolFileReader<Element: SpoolReadable> {
    @usableFromInline var descriptor: Int32
    @usableFromInline var bytes: [UInt8] = []
    /// Unread bytes are `bytes[position..<filled]`.
    @usableFromInline var position = 0
    @usableFromInline var filled = 0
    @usableFromInline var atEnd = false
    /// 64 KiB: a few files are read at once (the queued level, the pending links, the checks).
    @usableFromInline static var chunkBytes: Int { 64 << 10 }
    /// Set when the file could not be read to its end.
    @usableFromInline package var failure: (any Error)?

    @inlinable package init(path: String) throws(SpoolIOError) {
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw SpoolIOError(message: "cannot open \(path): \(String(cString: strerror(errno)))") }
    }

    /// The next record, or `nil` at the end (or after a failure, see ``failure``).
    @inlinable package func next() -> Element? {
        guard failure == nil, descriptor >= 0 else { return nil }
        do {
            guard let (start, end) = try frame() else {
                closeDescriptor(descriptor)
                descriptor = -1
                return nil
            }
            var decoder = SpoolDecoder(bytes, from: start, to: end)
            position = end
            return try Element(from: &decoder)
        } catch {
            failure = error
            closeDescriptor(descriptor)
            descriptor = -1
            return nil
        }
    }

    deinit {
        if descriptor >= 0 { closeDescriptor(descriptor) }
    }

    /// The bounds of the next record in `bytes`, reading more of the file as needed.
    @inlinable func frame() throws -> (Int, Int)? {
        while true {
            var decoder = SpoolDecoder(bytes, from: position, to: filled)
            if let length = try? decoder.unsigned() {
                guard length <= UInt64(Int32.max) else { throw SpoolDecodingError() }
                let header = varintLength(length)
                if filled - position - header >= Int(length) { return (position + header, position + header + Int(length)) }
            }
            if atEnd {
                guard position == filled else { throw SpoolDecodingError() }
                return nil
            }
            try refill()
        }
    }

    /// Moves the unread bytes to the front and reads the file into the rest (the buffer
    /// doubles when one record is larger than it).
    @inlinable func refill() throws {
        let unread = filled - position
        if bytes.isEmpty {
            bytes = [UInt8](repeating: 0, count: Self.chunkBytes)
        } else if unread == bytes.count {
            bytes += [UInt8](repeating: 0, count: bytes.count)
        }
        bytes.withUnsafeMutableBytes { raw in
            if position > 0, unread > 0 { memmove(raw.baseAddress!, raw.baseAddress! + position, unread) }
        }
        position = 0
        filled = unread
        var got = 0
        repeat {
            got = bytes.withUnsafeMutableBytes { raw in read(descriptor, raw.baseAddress! + unread, raw.count - unread) }
        } while got < 0 && errno == EINTR
        guard got >= 0 else { throw SpoolIOError(message: "cannot read a spool file: \(String(cString: strerror(errno)))") }
        filled += got
        if got == 0 { atEnd = true }
    }

    @inlinable func varintLength(_ value: UInt64) -> Int {
        var value = value
        var count = 1
        while value >= 0x80 {
            value >>= 7
            count += 1
        }
        return count
    }
}

@inlinable func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
