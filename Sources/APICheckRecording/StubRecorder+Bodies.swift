import APICheckJSON
import APICheckModel
import APICheckTemplates
import Foundation

extension StubRecorder {
    /// Inline text bodies up to this size; larger ones go to a file beside the stub.
    static let maximumInlineTextBytes = 4 << 10

    /// The response as it will be written (secrets replaced, origin templated) and the files it
    /// needs, paths relative to the recording folder.
    func recordedResponse(
        _ exchange: RecordedExchange, redactor: RecordingRedactor, folder: ArraySlice<String>, fileBase: String, notes: inout Set<String>
    ) throws(RecordingError) -> (RecordedResponse, [(String, Data)]) {
        let upstream = exchange.upstream
        let baseURLRewriter = try? OriginRewriter(from: upstream, placeholder: StubResponse.baseURLPlaceholder)
        // Headers: not hop-by-hop, not `Date` (the server sends its own), secrets replaced, links templated.
        var headers: [HTTPHeader] = []
        for header in exchange.response.headers where !UpstreamResponse.isHopByHop(header.name) && !header.name.caseInsensitiveEquals("Date") {
            var header = redactor.header(header, notes: &notes)
            if let baseURLRewriter, StubResponse.linkHeaderNames.contains(where: { $0.caseInsensitiveEquals(header.name) }) {
                header.value = baseURLRewriter.rewrite(header.value)
            }
            headers.append(header)
        }
        let contentType = headers.value(named: "Content-Type")
        let isJSON = contentType.map(Self.isJSON) ?? false
        let body = redactor.body(exchange.response.body, isJSON: isJSON, notes: &notes)
        let prefix = folder.isEmpty ? "" : folder.joined(separator: "/") + "/"
        var response = RecordedResponse(status: exchange.response.status, headers: headers, body: .none, bodyDigest: FNV1a.hexDigest(body))
        guard !body.isEmpty else { return (response, []) }

        let text = String(data: body, encoding: .utf8)
        if let baseURLRewriter, baseURLRewriter.rewrite(Array(body)) != nil {
            let name = fileBase + (isJSON ? ".json.mustache" : ".txt.mustache")
            // A template is text: a body that is not UTF-8 keeps the origin as it is, said so.
            if let text, let template = try templated(text, upstream: upstream, at: prefix + name) {
                response.body = .template(name)
                return (response, [(prefix + name, Data(template.utf8))])
            }
            notes.insert("origin left literal where no template could reproduce the body")
        }
        if let text {
            if isJSON, let value = try? JSONParser().parseValue([UInt8](body)), JSONWriter().bytes(value) == [UInt8](body) {
                response.body = .json(value)
                return (response, [])
            }
            if body.count <= Self.maximumInlineTextBytes, Self.isPlainText(text), options.format == .json || !text.contains("\r") {
                response.body = .text(text)
                return (response, [])
            }
        }
        let name = fileBase + "." + Self.fileExtension(for: contentType, isText: text != nil)
        response.body = .file(name)
        return (response, [(prefix + name, body)])
    }

    /// A template that renders exactly `text` with the upstream's origin as `baseURL`, or `nil`.
    /// Mustache gives `{{`, a lone `{` at the end and others their own meaning, so the delimiters
    /// are chosen per body and each candidate is checked by rendering it with the renderer that
    /// will serve it.
    private func templated(_ text: String, upstream: String, at relativePath: String) throws(RecordingError) -> String? {
        guard let normalized = try? OriginRewriter.normalizedOrigin(upstream),
            let expected = try? OriginRewriter(from: upstream, placeholder: normalized).rewrite(text)
        else { return nil }
        let renderer = TemplateRenderer()
        for (start, end) in [("{{", "}}"), ("<%", "%>"), ("[[", "]]"), ("<<<", ">>>"), ("⟦", "⟧")] {
            guard let rewriter = try? OriginRewriter(from: upstream, placeholder: start + "baseURL" + end) else { return nil }
            let template = (start == "{{" ? "" : "{{=\(start) \(end)=}}\n") + rewriter.rewrite(text)
            let probe = directory.appendingPathComponent(relativePath + ".probe-\(UUID().uuidString)")
            do {
                try FileManager.default.createDirectory(at: probe.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(template.utf8).write(to: probe)
            } catch {
                throw RecordingError("cannot write \(probe.path): \(error.localizedDescription)")
            }
            defer { try? FileManager.default.removeItem(at: probe) }
            let stubTemplate = StubTemplate(file: StubFile(declaredPath: relativePath, url: probe, byteCount: template.utf8.count))
            let context = TemplateContext(request: StubRequest(method: "GET", path: "/"), baseURL: normalized)
            if let rendered = try? renderer.render(stubTemplate, context: context), rendered == Data(expected.utf8) {
                return template
            }
        }
        return nil
    }

    static func isJSON(_ contentType: String) -> Bool { ContentTypeHeader.isJSON(contentType) }

    /// Text that reads well inline: no control characters but line breaks and tabs.
    static func isPlainText(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" || $0.value == 0x7F }
    }

    static func fileExtension(for contentType: String?, isText: Bool) -> String {
        let essence = contentType?.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        let known: [String: String] = [
            "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg",
            "application/pdf": "pdf", "text/html": "html", "text/css": "css", "application/javascript": "js", "text/csv": "csv",
            "application/xml": "xml", "text/xml": "xml", "application/atom+xml": "xml", "text/plain": "txt",
        ]
        if let known = known[essence] { return known }
        if isJSON(essence) { return "json" }
        if essence.hasSuffix("+xml") { return "xml" }
        return isText ? "txt" : "bin"
    }
}

extension RecordedResponse {
    /// The same answer: status, headers as written and the body's bytes (not where they are kept:
    /// a second file of the same bytes is the same answer).
    func sameAnswer(as other: RecordedResponse) -> Bool {
        status == other.status && headers == other.headers && bodyDigest == other.bodyDigest
    }
}
