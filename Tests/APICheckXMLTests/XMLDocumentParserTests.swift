import CAPICheckLibXML2
import APICheckXML
import Foundation
import Testing

@Suite struct XMLDocumentParserTests {
    private func parse(_ text: String) throws(XMLParseError) -> XMLElement {
        try XMLDocumentParser.parse(Array(text.utf8))
    }

    @Test func elementsAttributesAndTextWithPositions() throws {
        let root = try parse("""
            <?xml version="1.0"?>
            <root a="1">
              <child
                  name="x" value="&lt;y&gt;">text<![CDATA[ & <raw>]]></child>
              <!-- comment -->
            </root>
            """)
        #expect(root.name == "root")
        #expect(root.position == XMLPosition(line: 2, column: 1))
        #expect(root.attribute("a") == "1")
        let child = try #require(root.elements(named: "child").first)
        #expect(child.position == XMLPosition(line: 3, column: 3))
        #expect(child.attribute("value") == "<y>")
        #expect(child.attributeNode("name")?.position == XMLPosition(line: 4, column: 7))
        #expect(child.attributeNode("value")?.position == XMLPosition(line: 4, column: 16))
        #expect(child.text == "text & <raw>")
        #expect(root.elements.count == 1)
    }

    @Test func attributePositionsSkipQuotedValuesContainingAngleBrackets() throws {
        let root = try parse(#"<r a="x > y" b='1' c="2"/>"#)
        #expect(root.attributeNode("a")?.position == XMLPosition(line: 1, column: 4))
        #expect(root.attributeNode("b")?.position == XMLPosition(line: 1, column: 14))
        #expect(root.attributeNode("c")?.position == XMLPosition(line: 1, column: 20))
    }

    @Test func indentationBetweenElementsIsNotContentButTextIs() throws {
        let root = try parse("<r>\n  <a>  </a>\n  <b> x </b>\n</r>")
        #expect(root.children.count == 2)
        #expect(root.elements[0].text == "  ")
        #expect(root.elements[1].text == " x ")
    }

    @Test func malformedDocumentReportsLineAndColumn() {
        let error = #expect(throws: XMLParseError.self) {
            try parse("<a>\n  <b></a>\n")
        }
        #expect(error?.position.line == 2)
        #expect((error?.position.column ?? 0) > 1)
        #expect(error?.message.isEmpty == false)
    }

    @Test func emptyDocumentIsAnError() {
        #expect(throws: XMLParseError.self) { try parse("") }
    }

    @Test func externalEntityIsRefusedAndNothingIsRead() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-xxe-\(UUID().uuidString).txt")
        try Data("TOP-SECRET-CONTENT".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE r [ <!ENTITY leak SYSTEM "\(secret.absoluteString)"> ]>
            <r>&leak;</r>
            """
        let error = #expect(throws: XMLParseError.self) { try parse(document) }
        #expect(error?.description.contains("TOP-SECRET") == false)
        #expect(error?.position.line == 2)
    }

    @Test func anExternalDTDSubsetIsNeverLoaded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-dtd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dtd = folder.appendingPathComponent("secret.dtd")
        try Data(#"<!ENTITY e "LEAKED-FROM-DTD">"#.utf8).write(to: dtd)
        let document = "<?xml version=\"1.0\"?>\n<!DOCTYPE r SYSTEM \"\(dtd.absoluteString)\">\n<r>&e;</r>"
        do {
            let root = try parse(document)
            #expect(!root.text.contains("LEAKED"))
        } catch {
            #expect(!error.description.contains("LEAKED"))
        }
    }

    /// The refusal is set on our parser contexts only: another user of libxml2 in the process
    /// (FoundationXML on Linux, an app's own code) still resolves what it asks for.
    @Test func anotherLibXML2UserInTheProcessKeepsItsOwnEntityLoading() throws {
        _ = try? parse("<r/>")  // our parser has run in this process
        let entity = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-entity-\(UUID().uuidString).txt")
        try Data("resolved by the other library".utf8).write(to: entity)
        defer { try? FileManager.default.removeItem(at: entity) }
        let document = Array("<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY e SYSTEM \"\(entity.absoluteString)\">]><r>&e;</r>".utf8)
        let parsed = document.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlReadMemory($0, Int32(buffer.count), "other.xml", nil, Int32(XML_PARSE_NOENT.rawValue))
            }
        }
        let other = try #require(parsed)
        defer { xmlFreeDoc(other) }
        // The resolved text is in the tree the other library built (copied out, freed with the document).
        let text = try #require(xmlDocGetRootElement(other)?.pointee.children?.pointee.content)
        #expect(String(cString: text) == "resolved by the other library")
    }

    @Test func networkParameterEntityIsRefused() {
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE r [ <!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote; ]>
            <r/>
            """
        #expect(throws: XMLParseError.self) { try parse(document) }
    }

    @Test func billionLaughsIsRejected() {
        var declarations = "<!ENTITY lol0 \"lol\">"
        for level in 1...9 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let document = "<?xml version=\"1.0\"?><!DOCTYPE lolz [\(declarations)]><lolz>&lol9;</lolz>"
        #expect(throws: XMLParseError.self) { try parse(document) }
    }

    @Test func invalidUTF8IsAnErrorWithAPosition() {
        let bytes = Array("<a>\n<b>".utf8) + [0xC3, 0x28, 0xFF] + Array("</b></a>".utf8)
        let error = #expect(throws: XMLParseError.self) { try XMLDocumentParser.parse(bytes) }
        #expect(error?.position.line == 2)
    }

    @Test func excessiveNestingIsRejectedWithoutCrashing() {
        let depth = 20_000
        let document = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(throws: XMLParseError.self) { try parse(document) }
    }

    @Test func namespacedElementsKeepTheirLocalNameAndNamespace() throws {
        let root = try parse(#"<r xmlns:x="urn:apicheck"><x:latency request="1"/></r>"#)
        let element = try #require(root.elements.first)
        #expect(element.name == "latency")
        #expect(element.namespaceURI == "urn:apicheck")
        #expect(element.position == XMLPosition(line: 1, column: 27))
    }
}
