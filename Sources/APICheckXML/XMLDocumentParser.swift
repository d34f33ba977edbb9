import CAPICheckLibXML2
import Foundation

/// The one way APICheck parses XML: libxml2 with safe options, errors as values with positions.
///
/// Safety, for untrusted input:
/// - `XML_PARSE_NONET`, and a parser context whose SAX handler resolves no external entity and
///   loads no external subset: nothing is fetched or read besides the bytes handed in. This is
///   set per parser context, never with libxml2's process-wide `xmlSetExternalEntityLoader`, so
///   another library parsing XML in the same process (FoundationXML does, on Linux) keeps its own
///   behaviour (tested).
/// - Never `XML_PARSE_NOENT`, `XML_PARSE_DTDLOAD` or `XML_PARSE_HUGE`: libxml2 keeps its depth
///   (256) and entity-amplification limits, so billion-laughs is rejected at once.
/// - Documents that declare entities are refused outright (stub files and API responses have no
///   use for them, and it closes XXE whatever libxml2 version is installed).
public enum XMLDocumentParser {
    /// Parses `bytes` and returns the root element.
    ///
    /// - Parameter documentName: used by libxml2 as the document URL; it is never opened.
    public static func parse(_ bytes: [UInt8], documentName: String = "document.xml") throws(XMLParseError) -> XMLElement {
        LibXML2.initialize()
        guard !bytes.isEmpty else {
            throw XMLParseError(position: XMLPosition(line: 1, column: 1), message: "the document is empty")
        }
        guard bytes.count <= Int(Int32.max) else {
            throw XMLParseError(position: XMLPosition(line: 1, column: 1), message: "the document is too large")
        }
        guard let context = xmlNewParserCtxt() else {
            throw XMLParseError(position: XMLPosition(line: 1, column: 1), message: "libxml2 could not allocate a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        let capture = ParseCapture()
        LibXML2.install(capture, on: context)

        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                xmlCtxtReadMemory(context, pointer, Int32(buffer.count), documentName, nil, LibXML2.safeOptions)
            }
        }
        defer { if let document { xmlFreeDoc(document) } }
        if let line = capture.entityDeclarationLine {
            throw XMLParseError(
                position: XMLPosition(line: line, column: 1),
                message: "entity declarations are not allowed (they could read files or expand without bound)"
            )
        }
        guard let document, context.pointee.wellFormed != 0 else {
            throw capture.firstError ?? LibXML2.lastError(of: context)
        }

        let lines = LineTable(bytes)
        guard let root = xmlDocGetRootElement(document) else {
            throw XMLParseError(position: XMLPosition(line: 1, column: 1), message: "the document has no root element")
        }
        var converter = TreeConverter(lines: lines)
        return converter.element(root)
    }
}

/// Parses without building anything: the bare-libxml2 yardstick for the loader benchmark.
package enum LibXML2Baseline {
    /// Reads the file at `path` and parses it with `xmlReadMemory` and the same options as
    /// ``XMLDocumentParser``, then frees it. (Not `xmlReadFile`: the document's bytes are read the
    /// same way ``XMLDocumentParser`` gets them.) Trusted benchmark input only.
    package static func parseAndFree(path: String) -> Bool {
        LibXML2.initialize()
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return false }
        let document = data.withUnsafeBytes { buffer in
            xmlReadMemory(buffer.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(buffer.count), path, nil, LibXML2.safeOptions)
        }
        guard let document else { return false }
        xmlFreeDoc(document)
        return true
    }
}

private enum LibXML2 {
    static let safeOptions = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue
    )

    /// `xmlInitParser` is process-wide but idempotent and meant to be called by every user of
    /// libxml2 before parsing from several threads; it changes no behaviour another user relies on.
    private static let initialized: Void = { xmlInitParser() }()

    static func initialize() { _ = initialized }

    /// Routes the context's errors to `capture` (the first one wins) and refuses entity
    /// declarations as they are parsed, before anything could reference them.
    static func install(_ capture: ParseCapture, on context: xmlParserCtxtPtr) {
        context.pointee._private = Unmanaged.passUnretained(capture).toOpaque()
        context.pointee.sax.pointee.serror = { userData, error in
            guard let capture = ParseCapture.from(userData), capture.firstError == nil, let error else { return }
            capture.firstError = LibXML2.parseError(from: error.pointee)
        }
        context.pointee.sax.pointee.entityDecl = { userData, _, _, _, _, _ in
            guard let userData, let capture = ParseCapture.from(userData) else { return }
            let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
            if capture.entityDeclarationLine == nil {
                capture.entityDeclarationLine = max(Int(context.pointee.input?.pointee.line ?? 1), 1)
            }
            xmlStopParser(context)
        }
        // This context only: no external entity is resolved and no external DTD subset loaded.
        context.pointee.sax.pointee.resolveEntity = { _, _, _ in nil }
        context.pointee.sax.pointee.externalSubset = { _, _, _, _ in }
    }

    static func parseError(from error: xmlError) -> XMLParseError {
        let line = max(Int(error.line), 1)
        let column = max(Int(error.int2), 1)
        var message = error.message.map { String(cString: $0) } ?? "the document is not well-formed"
        while message.last?.isWhitespace == true { message.removeLast() }
        return XMLParseError(position: XMLPosition(line: line, column: column), message: message)
    }

    static func lastError(of context: xmlParserCtxtPtr) -> XMLParseError {
        guard let error = xmlCtxtGetLastError(context) else {
            return XMLParseError(position: XMLPosition(line: 1, column: 1), message: "the document is not well-formed")
        }
        return parseError(from: error.pointee)
    }
}

/// What the callbacks of one parse found. Used only on the parsing thread, during the parse.
private final class ParseCapture {
    var firstError: XMLParseError?
    var entityDeclarationLine: Int?

    /// The capture installed on the parser context that libxml2 hands its callbacks as user data.
    static func from(_ userData: UnsafeMutableRawPointer?) -> ParseCapture? {
        guard let userData else { return nil }
        let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let raw = context.pointee._private else { return nil }
        return Unmanaged<ParseCapture>.fromOpaque(raw).takeUnretainedValue()
    }
}

/// Copies libxml2's tree into ``XMLElement`` values and works out columns from the source bytes.
private struct TreeConverter {
    let lines: LineTable
    /// Where the previous element's start tag was: elements are converted in document order, so
    /// each search starts there and the whole document is scanned about once.
    var cursor = 0

    mutating func element(_ node: xmlNodePtr) -> XMLElement {
        let name = string(node.pointee.name)
        let line = max(Int(xmlGetLineNo(node)), 1)
        let start = lines.findTag(name: name, prefix: node.pointee.ns.flatMap { $0.pointee.prefix.map(string) }, line: line, from: cursor)
        if start.found { cursor = start.offset + 1 }
        var attributes: [XMLAttribute] = []
        var attribute = node.pointee.properties
        if attribute != nil {
            let offsets = lines.attributeOffsets(inStartTagAt: start.offset)
            while let current = attribute {
                let attributeName = string(current.pointee.name)
                let value = attributeValue(current, in: node)
                let offset = offsets.first { lines.localNameEquals($0.name, attributeName) }?.offset
                attributes.append(XMLAttribute(
                    name: attributeName, value: value, position: offset.map(lines.position(of:)) ?? start.position,
                    namespaceURI: current.pointee.ns.flatMap { $0.pointee.href.map(string) }))
                attribute = current.pointee.next
            }
        }
        var children: [XMLNode] = []
        // Indentation between child elements is not content: skip blank text beside elements.
        var hasElementChildren = false
        var scan = node.pointee.children
        while let current = scan, !hasElementChildren {
            hasElementChildren = current.pointee.type == XML_ELEMENT_NODE
            scan = current.pointee.next
        }
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                children.append(.element(element(current)))
            case XML_TEXT_NODE where hasElementChildren && xmlIsBlankNode(current) != 0:
                break
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                let text = current.pointee.content.map(string) ?? ""
                if case .text(let previous)? = children.last {
                    children[children.count - 1] = .text(previous + text)
                } else {
                    children.append(.text(text))
                }
            default:
                break  // comments, processing instructions
            }
            child = current.pointee.next
        }
        let namespace = node.pointee.ns.flatMap { $0.pointee.href.map(string) }
        return XMLElement(
            name: name, namespaceURI: namespace, attributes: attributes, children: children, position: start.position
        )
    }

    /// Most attribute values are one text node: read it in place instead of asking libxml2 to
    /// concatenate into a fresh C string.
    private func attributeValue(_ attribute: xmlAttrPtr, in node: xmlNodePtr) -> String {
        guard let child = attribute.pointee.children else { return "" }
        if child.pointee.next == nil, child.pointee.type == XML_TEXT_NODE, let content = child.pointee.content {
            return String(cString: content)
        }
        guard let joined = xmlNodeListGetString(node.pointee.doc, child, 1) else { return "" }
        defer { apicheck_xml_free(joined) }
        return String(cString: joined)
    }

    private func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    private func string(_ pointer: UnsafeMutablePointer<xmlChar>) -> String {
        String(cString: pointer)
    }
}

/// Offsets of line starts, so element and attribute positions get a column as well as a line.
private struct LineTable {
    let bytes: [UInt8]
    let starts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is not a column.
        var starts = [bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        self.starts = starts
    }

    func position(of offset: Int) -> XMLPosition {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return XMLPosition(line: low + 1, column: offset - starts[low] + 1)
    }

    /// The first `<name` (or `<prefix:name`) at or after `cursor` and no later than the end of
    /// `line` (libxml2 reports the line where a start tag ends, so a tag spanning lines starts
    /// earlier). Text inside CDATA can hold a look-alike, so the search starts no further back
    /// than 64 lines before `line`.
    func findTag(name: String, prefix: String?, line: Int, from cursor: Int) -> (position: XMLPosition, offset: Int, found: Bool) {
        let tag = Array(("<" + (prefix.map { $0 + ":" } ?? "") + name).utf8)
        let lineIndex = min(max(line - 1, 0), starts.count - 1)
        let end = lineIndex + 1 < starts.count ? starts[lineIndex + 1] : bytes.count
        let from = max(cursor, starts[max(lineIndex - 64, 0)])
        if let offset = firstOccurrence(of: tag, in: from..<end) {
            return (position(of: offset), offset, true)
        }
        return (XMLPosition(line: line, column: 1), starts[lineIndex], false)
    }

    /// The offsets of the attribute names of the start tag beginning at `offset` (its `<`),
    /// in one pass that skips quoted values (which may contain `>`).
    func attributeOffsets(inStartTagAt offset: Int) -> [(name: Range<Int>, offset: Int)] {
        var result: [(name: Range<Int>, offset: Int)] = []
        var index = offset + 1
        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }  // the element name
        while index < bytes.count {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/") else { break }
            let nameStart = index
            while index < bytes.count, isNameByte(bytes[index]), bytes[index] != UInt8(ascii: "=") { index += 1 }
            result.append((nameStart..<index, nameStart))
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { break }
            index += 1
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { break }
            let quote = bytes[index]
            index += 1
            while index < bytes.count, bytes[index] != quote { index += 1 }
            index += 1
        }
        return result
    }

    /// Whether the (possibly prefixed) name at `range` has the local name `name`.
    func localNameEquals(_ range: Range<Int>, _ name: String) -> Bool {
        let local = bytes[range].lastIndex(of: UInt8(ascii: ":")).map { ($0 + 1)..<range.upperBound } ?? range
        return bytes[local].elementsEqual(name.utf8)
    }

    private func firstOccurrence(of needle: [UInt8], in range: Range<Int>) -> Int? {
        guard !needle.isEmpty, range.count >= needle.count else { return nil }
        var index = range.lowerBound
        while index + needle.count <= range.upperBound {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) {
                let next = index + needle.count
                if next >= bytes.count || !isNameByte(bytes[next]) { return index }
            }
            index += 1
        }
        return nil
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        !(isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/"))
    }
}
