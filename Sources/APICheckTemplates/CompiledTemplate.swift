import Mustache

/// A template compiled by swift-mustache, chunk by chunk (see ``TemplateScanner``), with the costs
/// that bound its rendering.
struct CompiledTemplate: Sendable {
    /// Rendered in order and concatenated.
    var chunks: [MustacheTemplate]
    /// Per `#` section name's last segment: bytes one iteration can emit by itself.
    var sectionCosts: [String: Int]
    var maximumSectionCost: Int
    /// Bytes the template emits outside iterations and values.
    var staticBytes: Int

    /// Scans and compiles `text`; a failure is located in the template.
    static func compile(_ text: String, path: String, limits: TemplateScanner.Limits = .init()) throws(TemplateError) -> CompiledTemplate {
        TemplateContentType.registerOnce()
        let scan: TemplateScanner.Result
        do {
            scan = try TemplateScanner.scan(text, defaultContentType: TemplateContentType.forTemplate(named: path), limits: limits)
        } catch {
            throw TemplateError(path: path, line: error.location.line, column: error.location.column, error.message)
        }
        if scan.staticBytes > TemplateRenderer.maximumOutputBytes {
            let location = scan.firstIndentingBlock ?? TemplateScanner.Location(line: 1, column: 1)
            throw TemplateError(
                path: path, line: location.line, column: location.column,
                "the template would render more than \(TemplateRenderer.maximumOutputBytes >> 20) MiB by itself (block indentation is repeated on every line)"
            )
        }
        var chunks: [MustacheTemplate] = []
        chunks.reserveCapacity(scan.chunks.count)
        for chunk in scan.chunks {
            // The prefix restates what is in effect where the chunk starts; each of its lines is a
            // standalone tag, so it renders nothing and leaves the parser at a line start.
            var prefix = "{{%CONTENT_TYPE:\(chunk.contentType)}}\n"
            var prefixLines = 1
            if chunk.startDelimiter != "{{" || chunk.endDelimiter != "}}" {
                prefix += "{{=\(chunk.startDelimiter) \(chunk.endDelimiter)=}}\n"
                prefixLines += 1
            }
            let source = prefix + text[chunk.range]
            do {
                chunks.append(try MustacheTemplate(string: source))
            } catch let error as MustacheTemplate.ParserError {
                // The scanner accepts only what swift-mustache parses, except for its checks of what a
                // partial with blocks (`{{<partial}}`) may contain; map the position back.
                let line = max(1, chunk.firstLine + error.context.lineNumber - 1 - prefixLines)
                let column = source.contains("\r\n") ? 1 : error.context.columnNumber
                throw TemplateError(path: path, line: line, column: column, Self.describe(error.error))
            } catch {
                throw TemplateError(path: path, line: chunk.firstLine, column: 1, "the template does not compile: \(error)")
            }
        }
        return CompiledTemplate(
            chunks: chunks, sectionCosts: scan.sectionCosts, maximumSectionCost: max(1, scan.maximumSectionCost),
            staticBytes: scan.staticBytes
        )
    }

    /// swift-mustache's rendering of the whole template compiled at once, for tests of the chunking.
    static func renderUnchunked(_ text: String, contentType: String, object: Any) throws -> String {
        TemplateContentType.registerOnce()
        return try MustacheTemplate(string: "{{%CONTENT_TYPE:\(contentType)}}\n" + text).render(object)
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .sectionCloseNameIncorrect: "a closing tag does not match the open section"
        case .unfinishedName: "malformed tag name"
        case .expectedSectionEnd: "a section is never closed"
        case .invalidSetDelimiter: "invalid set-delimiter tag"
        case .transformAppliedToInheritanceSection: "a block cannot have transforms"
        case .illegalTokenInsideInheritSection: "a partial with blocks ('{{<partial}}') may only contain blocks ('{{$name}}…{{/name}}')"
        case .textInsideInheritSection: "a partial with blocks ('{{<partial}}') may only contain blocks, not text"
        case .invalidConfigVariableSyntax: "invalid pragma"
        case .unrecognisedConfigVariable: "unknown pragma or content type"
        case nil: "the template does not compile: \(error)"
        }
    }
}
