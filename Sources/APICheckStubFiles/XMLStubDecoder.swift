import APICheckJSON
import APICheckModel
import APICheckXML
import Foundation

/// Decodes PEWire-Control XML stub files (FORMATS §1), with APICheck's additive extensions.
package struct XMLStubDecoder {
    package init() {}

    package func decode(_ bytes: [UInt8], context: inout StubFileContext) -> [Stub] {
        let root: XMLElement
        do {
            root = try XMLDocumentParser.parse(bytes, documentName: context.displayPath)
        } catch {
            context.error(error.message, at: context.location(error.position.line, error.position.column))
            return []
        }
        XMLStubSchema.check(root, context: &context)
        let elements: [XMLElement]
        switch root.name {
        case "http-response":
            elements = [root]
        case "http-sequence":
            return decodeSequence(root, context: &context).map { [$0] } ?? []
        case "http-responses":
            elements = root.elements(named: "http-response")
            if elements.isEmpty {
                context.warning("<http-responses> holds no <http-response>", at: location(root, context))
            }
        default:
            context.error("wrong root element <\(root.name)>: a stub file starts with <http-response>, <http-responses> or <http-sequence>", at: location(root, context))
            return []
        }
        var stubs: [Stub] = []
        for (index, element) in elements.enumerated() {
            if let stub = decodeResponse(element, index: index, context: &context) { stubs.append(stub) }
        }
        return stubs
    }

    private func location(_ element: XMLElement, _ context: StubFileContext) -> SourceLocation {
        context.location(element.position.line, element.position.column)
    }

    private func location(_ attribute: XMLAttribute, _ context: StubFileContext) -> SourceLocation {
        context.location(attribute.position.line, attribute.position.column)
    }

    /// `<http-sequence after-last="repeat-last|fail">`: the first `<http-response>` names the
    /// request; every `<http-response>` in order is one answer.
    private func decodeSequence(_ root: XMLElement, context: inout StubFileContext) -> Stub? {
        var afterLast = StubSequence.AfterLast.repeatLast
        if let attribute = root.attributeNode("after-last") {
            guard let value = StubSequence.AfterLast(rawValue: attribute.value) else {
                context.error("after-last \"\(attribute.value)\" must be repeat-last or fail", at: location(attribute, context))
                return nil
            }
            afterLast = value
        }
        let elements = root.elements(named: "http-response")
        guard let first = elements.first else {
            context.error("<http-sequence> needs at least one <http-response>", at: location(root, context))
            return nil
        }
        guard var stub = decodeResponse(first, index: 0, context: &context) else { return nil }
        var responses = [stub.response]
        for element in elements.dropFirst() {
            guard let response = decodeResponsePart(element, context: &context) else { return nil }
            responses.append(response)
        }
        stub.sequence = StubSequence(responses: responses, afterLast: afterLast)
        return stub
    }

    /// Status, headers, cookies, body, latency and failure of one `<http-response>`.
    private func decodeResponsePart(_ element: XMLElement, context: inout StubFileContext) -> StubResponse? {
        let errorsBefore = context.errorCount
        // Failure first: a failing stub needs no status.
        var failure: StubFailure?
        let failureElement = element.firstElement(named: "failure")
        if let failureElement {
            if let code = failureElement.attributeNode("code") {
                failure = context.failure(code.value, at: location(code, context))
            } else {
                context.error("<failure> needs a code attribute", at: location(failureElement, context))
            }
        }
        var status = 200
        if let attribute = element.attributeNode("statusCode") {
            let value = Int(attribute.value.trimmedASCIIWhitespace)
            status = context.status(value, text: attribute.value, at: location(attribute, context)) ?? status
        } else if failureElement == nil {
            // A <failure> needs no status, even when its code is wrong (that error is reported).
            context.error("<http-response> needs a statusCode attribute (e.g. statusCode=\"200\")", at: location(element, context))
        }
        var headers: [HTTPHeader] = []
        for container in element.elements(named: "headers") {
            for header in container.elements {
                guard header.name == "header" else { continue }  // reported by XMLStubSchema
                guard let name = header.attribute("name"), !name.isEmpty else {
                    context.error("<header> needs a name attribute", at: location(header, context))
                    continue
                }
                guard let value = header.attribute("value") else {
                    context.error("<header name=\"\(name)\"> needs a value attribute", at: location(header, context))
                    continue
                }
                headers.append(HTTPHeader(name: context.repeatedStrings.shared(name), value: context.repeatedStrings.shared(value)))
            }
        }

        var cookies: [StubCookie] = []
        for container in element.elements(named: "cookies") {
            for cookie in container.elements {
                guard cookie.name == "cookie" else { continue }  // reported by XMLStubSchema
                if let decoded = decodeCookie(cookie, context: &context) { cookies.append(decoded) }
            }
        }

        let body = decodeBody(element, context: &context)

        var latency = StubLatency.none
        if let latencyElement = element.firstElement(named: "latency") {
            for (attributeName, keyPath) in [("request", \StubLatency.request), ("response", \StubLatency.response)] {
                guard let attribute = latencyElement.attributeNode(attributeName) else { continue }
                if let seconds = context.seconds(Double(attribute.value), text: attribute.value, name: attributeName, at: location(attribute, context)) {
                    latency[keyPath: keyPath] = seconds
                }
            }
        }

        guard context.errorCount == errorsBefore else { return nil }
        let response = StubResponse(status: status, headers: headers, cookies: cookies, body: body, latency: latency, failure: failure)
        context.checkContentLength(response, at: location(element, context))
        return response
    }

    private func decodeResponse(_ element: XMLElement, index: Int, context: inout StubFileContext) -> Stub? {
        let errorsBefore = context.errorCount
        var priority = 0
        if let attribute = element.attributeNode("priority") {
            if let value = Int(attribute.value) { priority = value } else {
                context.error("priority \"\(attribute.value)\" is not an integer", at: location(attribute, context))
            }
        }
        guard let annotation = element.firstElement(named: "annotation") else {
            var message = "<http-response> needs an <annotation uri-path=\"…\" request-method=\"…\"> saying which request it answers"
            if let misspelt = XMLStubSchema.misspelling(of: "annotation", in: element) {
                message += "; <\(misspelt.name)> at \(misspelt.position.line):\(misspelt.position.column) looks like a misspelling of it"
            }
            context.error(message, at: location(element, context))
            return nil
        }
        let name = annotation.attribute("name") ?? ""
        let description = annotation.text.trimmedASCIIWhitespace

        var method: String? = "GET"
        if let attribute = annotation.attributeNode("request-method") {
            method = context.method(attribute.value, at: location(attribute, context))
        }
        var path: PathPattern?
        var query: [ValueConstraint] = []
        if let attribute = annotation.attributeNode("uri-path") {
            if let (pattern, pathQuery) = context.path(attribute.value, at: location(attribute, context)) {
                path = pattern
                query = pathQuery
            }
        } else {
            context.error("<annotation> needs a uri-path attribute (e.g. uri-path=\"/users\")", at: location(annotation, context))
        }
        var origin: OriginConstraint?
        if annotation.attribute("match-host") == "true" {
            var port: Int?
            if let attribute = annotation.attributeNode("port") {
                port = Int(attribute.value).flatMap { (0...65535).contains($0) ? $0 : nil }
                if port == nil { context.error("port \"\(attribute.value)\" is not a TCP port (0-65535)", at: location(attribute, context)) }
            }
            origin = OriginConstraint(scheme: annotation.attribute("scheme"), host: annotation.attribute("host"), port: port)
        }
        let example = annotation.attributeNode("example").flatMap { attribute in
            context.example(attribute.value, for: path, at: location(attribute, context))
        }
        if let attribute = annotation.attributeNode("priority") {
            if let value = Int(attribute.value) { priority = value } else {
                context.error("priority \"\(attribute.value)\" is not an integer", at: location(attribute, context))
            }
        }

        var headerConstraints: [ValueConstraint] = []
        var bodyConstraints: [BodyConstraint] = []
        for request in element.elements(named: "request") {
            for child in request.elements {
                switch child.name {
                case "query":
                    if let constraint = valueConstraint(child, context: &context) { query.append(constraint) }
                case "header":
                    if let constraint = valueConstraint(child, context: &context) { headerConstraints.append(constraint) }
                case "body-json":
                    if let pointer = child.attribute("path"), let equals = child.attribute("equals") {
                        if !pointer.isEmpty, !pointer.hasPrefix("/") {
                            context.error("body-json path \"\(pointer)\" is not a JSON Pointer (it starts with '/', e.g. /movieId)", at: location(child, context))
                        } else {
                            bodyConstraints.append(.jsonPointer(path: pointer, equals: equals))
                        }
                    } else {
                        context.error("<body-json> needs path and equals attributes", at: location(child, context))
                    }
                case "body-contains":
                    bodyConstraints.append(.contains(child.text))
                default:
                    break  // reported by XMLStubSchema
                }
            }
        }

        let response = decodeResponsePart(element, context: &context)
        guard context.errorCount == errorsBefore, let path, let response else { return nil }
        return Stub(
            id: context.stubID(index: index),
            name: name.isEmpty ? "\(method ?? "*") \(path.text)" : name,
            description: description,
            request: RequestPattern(
                method: method == "*" ? nil : method, path: path, query: query, headers: headerConstraints,
                body: bodyConstraints, origin: origin, example: example
            ),
            response: response,
            priority: priority,
            source: location(element, context)
        )
    }

    private func valueConstraint(_ element: XMLElement, context: inout StubFileContext) -> ValueConstraint? {
        guard let name = element.attribute("name"), !name.isEmpty else {
            context.error("<\(element.name)> needs a name attribute", at: location(element, context))
            return nil
        }
        return ValueConstraint(name: name, value: element.attribute("value"))
    }

    private func decodeCookie(_ element: XMLElement, context: inout StubFileContext) -> StubCookie? {
        guard let name = element.attribute("name"), !name.isEmpty else {
            context.error("<cookie> needs a name attribute", at: location(element, context))
            return nil
        }
        var cookie = StubCookie(name: name, value: element.attribute("value") ?? "")
        cookie.path = element.attribute("path")
        cookie.domain = element.attribute("domain")
        // PEWire-Control: only the exact value "true" means secure ("false." and "yes" do not).
        cookie.secure = element.attribute("secure") == "true"
        cookie.httpOnly = (element.attribute("http-only") ?? element.attribute("httponly")) == "true"
        if let expires = element.attributeNode("expires") {
            cookie.expires = context.cookieExpiry(expires.value, at: location(expires, context))
        }
        if let maxAge = element.attributeNode("max-age") {
            if let value = Int(maxAge.value) { cookie.maxAge = value } else {
                context.error("cookie max-age \"\(maxAge.value)\" is not a whole number of seconds", at: location(maxAge, context))
            }
        }
        if let sameSite = element.attributeNode("same-site") {
            cookie.sameSite = StubCookie.SameSite.allCases.first { $0.rawValue.caseInsensitiveCompare(sameSite.value) == .orderedSame }
            if cookie.sameSite == nil {
                context.error("cookie same-site \"\(sameSite.value)\" must be Strict, Lax or None", at: location(sameSite, context))
            }
        }
        return cookie
    }

    private func decodeBody(_ element: XMLElement, context: inout StubFileContext) -> StubBody {
        let sources = element.elements.filter { ["body", "body-file", "body-template"].contains($0.name) }
        if sources.count > 1 {
            context.error("a stub has one body: <body>, <body-file> or <body-template>, not \(sources.count)", at: location(sources[1], context))
            return .empty
        }
        guard let source = sources.first else { return .empty }
        switch source.name {
        case "body":
            return .bytes(Data(source.text.utf8))
        case "body-file", "body-template":
            guard let declared = source.attributeNode("path") else {
                context.error("<\(source.name)> needs a path attribute", at: location(source, context))
                return .empty
            }
            guard let file = context.file(declared.value, at: location(declared, context)) else { return .empty }
            guard source.name == "body-template" else { return .file(file) }
            var variables: [String: JSONValue] = [:]
            for variable in source.elements(named: "var") {
                guard let name = variable.attribute("name"), !name.isEmpty else {
                    context.error("<var> needs a name attribute", at: location(variable, context))
                    continue
                }
                variables[name] = .string(variable.attribute("value") ?? variable.text)
            }
            return .template(StubTemplate(file: file, variables: variables))
        default:
            return .empty
        }
    }
}
