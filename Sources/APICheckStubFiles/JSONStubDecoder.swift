import APICheckJSON
import APICheckModel
import Foundation

/// Decodes JSON stub files (FORMATS §2): one stub object, or `{"stubs": [...]}`.
/// The keys mirror the XML format; `schemas/stub.schema.json` publishes them for editors.
package struct JSONStubDecoder {
    /// The keys each object accepts; the JSON Schema's tests check it lists exactly these.
    static let stubKeys: Set<String> = [
        "name", "description", "priority", "request", "response", "responses", "afterLast", "latency", "failure",
    ]
    static let requestKeys: Set<String> = [
        "method", "path", "query", "headers", "bodyJSON", "bodyContains", "matchHost", "scheme", "host", "port", "example",
    ]
    static let responseKeys: Set<String> = ["status", "headers", "cookies", "body", "bodyText", "bodyFile", "template"]
    static let cookieKeys: Set<String> = ["name", "value", "path", "domain", "secure", "httpOnly", "expires", "maxAge", "sameSite"]
    static let latencyKeys: Set<String> = ["request", "response"]
    static let templateKeys: Set<String> = ["path", "variables"]
    static let bodyJSONKeys: Set<String> = ["path", "equals"]
    static let nameValueKeys: Set<String> = ["name", "value"]

    package init() {}

    package func decode(_ bytes: [UInt8], context: inout StubFileContext) -> [Stub] {
        let document: JSONNode
        do {
            document = try JSONParser(maximumDepth: context.options.maximumJSONDepth).parse(bytes)
        } catch {
            context.error("invalid JSON: \(error.message)", at: context.location(error.position.line, error.position.column))
            return []
        }
        guard let members = document.members else {
            context.error("a JSON stub file holds an object (one stub, or {\"stubs\": [...]}), not \(document.typeName)", at: location(document, context))
            return []
        }
        if let list = document["stubs"] {
            for member in members where member.key != "stubs" && member.key != "$schema" {
                context.unknown("key \"\(member.key)\" beside \"stubs\"", name: member.key, known: ["stubs", "$schema"], quote: { "\"\($0)\"" }, at: location(member.keyPosition, context))
            }
            guard case .array(let elements) = list.kind else {
                context.error("\"stubs\" must be an array of stub objects, not \(list.typeName)", at: location(list, context))
                return []
            }
            return elements.enumerated().compactMap { index, element in decodeStub(element, index: index, context: &context) }
        }
        return decodeStub(document, index: 0, context: &context).map { [$0] } ?? []
    }

    private func location(_ node: JSONNode, _ context: StubFileContext) -> SourceLocation {
        context.location(node.position.line, node.position.column)
    }

    private func location(_ position: JSONPosition, _ context: StubFileContext) -> SourceLocation {
        context.location(position.line, position.column)
    }

    private func object(_ node: JSONNode, named name: String, keys: Set<String>, context: inout StubFileContext) -> [JSONNode.Member]? {
        guard let members = node.members else {
            context.error("\(name) must be an object, not \(node.typeName)", at: location(node, context))
            return nil
        }
        for member in members where !keys.contains(member.key) && member.key != "$schema" {
            context.unknown("key \"\(member.key)\" in \(name)", name: member.key, known: keys, quote: { "\"\($0)\"" }, at: location(member.keyPosition, context))
        }
        return members
    }

    private func string(_ node: JSONNode, named name: String, context: inout StubFileContext) -> String? {
        guard case .string(let value) = node.kind else {
            context.error("\(name) must be a string, not \(node.typeName)", at: location(node, context))
            return nil
        }
        return value
    }

    private func number(_ node: JSONNode, named name: String, context: inout StubFileContext) -> Double? {
        guard case .number(let lexeme) = node.kind, let value = Double(lexeme) else {
            context.error("\(name) must be a number, not \(node.typeName)", at: location(node, context))
            return nil
        }
        return value
    }

    private func integer(_ node: JSONNode, named name: String, context: inout StubFileContext) -> Int? {
        // As in JSON Schema, a number with a zero fraction (200.0, 2e2) is an integer.
        guard case .number(let lexeme) = node.kind,
            let value = Int(lexeme) ?? Double(lexeme).flatMap({ $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil })
        else {
            context.error("\(name) must be a whole number, not \(node.typeName)", at: location(node, context))
            return nil
        }
        return value
    }

    private func bool(_ node: JSONNode, named name: String, context: inout StubFileContext) -> Bool? {
        guard case .bool(let value) = node.kind else {
            context.error("\(name) must be true or false, not \(node.typeName)", at: location(node, context))
            return nil
        }
        return value
    }

    private func decodeStub(_ node: JSONNode, index: Int, context: inout StubFileContext) -> Stub? {
        let errorsBefore = context.diagnostics.filter { $0.severity == .error }.count
        guard object(node, named: "a stub", keys: Self.stubKeys, context: &context) != nil else { return nil }

        let name = node["name"].flatMap { string($0, named: "\"name\"", context: &context) } ?? ""
        let description = node["description"].flatMap { string($0, named: "\"description\"", context: &context) } ?? ""
        var priority = 0
        if let value = node["priority"] { priority = integer(value, named: "\"priority\"", context: &context) ?? 0 }

        var failure: StubFailure?
        if let value = node["failure"], let code = string(value, named: "\"failure\"", context: &context) {
            failure = context.failure(code, at: location(value, context))
        }

        var latency = StubLatency.none
        if let value = node["latency"], object(value, named: "\"latency\"", keys: Self.latencyKeys, context: &context) != nil {
            for (key, keyPath) in [("request", \StubLatency.request), ("response", \StubLatency.response)] {
                guard let part = value[key] else { continue }
                let seconds = number(part, named: "latency.\(key)", context: &context)
                if let seconds, let checked = context.seconds(seconds, text: "\(seconds)", name: key, at: location(part, context)) {
                    latency[keyPath: keyPath] = checked
                }
            }
        }

        guard let request = node["request"] else {
            context.error("a stub needs \"request\" with at least a \"path\"", at: location(node, context))
            return nil
        }
        let pattern = decodeRequest(request, context: &context, purpose: .stub)

        var response = StubResponse(latency: latency, failure: failure)
        var sequence: StubSequence?
        if let value = node["response"], node["responses"] != nil {
            context.error("a stub has \"response\" or \"responses\" (a sequence), not both", at: location(value, context))
        } else if let value = node["response"] {
            decodeResponse(value, into: &response, context: &context)
        } else if let value = node["responses"] {
            // A sequence: one response per request, in order; `latency` and `failure` apply to each.
            if case .array(let elements) = value.kind, !elements.isEmpty {
                var responses: [StubResponse] = []
                for element in elements {
                    var next = StubResponse(latency: latency, failure: failure)
                    decodeResponse(element, into: &next, context: &context)
                    responses.append(next)
                }
                var afterLast = StubSequence.AfterLast.repeatLast
                if let afterNode = node["afterLast"], let text = string(afterNode, named: "\"afterLast\"", context: &context) {
                    switch text {
                    case "repeat-last": afterLast = .repeatLast
                    case "repeatLast":
                        // The old JSON spelling; one spelling per value across XML and JSON now.
                        afterLast = .repeatLast
                        context.warning("\"afterLast\": \"repeatLast\" is the old spelling; write \"repeat-last\", as XML does", at: location(afterNode, context), code: .deprecatedSpelling)
                    case "fail": afterLast = .fail
                    default:
                        context.error(
                            "\"afterLast\" must be \"repeat-last\" or \"fail\"" + Suggestion.didYouMean(text, in: ["repeat-last", "fail"], quote: { "\"\($0)\"" }),
                            at: location(afterNode, context))
                    }
                }
                response = responses[0]
                sequence = StubSequence(responses: responses, afterLast: afterLast)
            } else {
                context.error("\"responses\" must be a non-empty array of response objects", at: location(value, context))
            }
        } else if failure == nil {
            context.error("a stub needs \"response\" (with a \"status\"), \"responses\" or \"failure\"", at: location(node, context))
        }

        let errorsAfter = context.diagnostics.filter { $0.severity == .error }.count
        guard errorsAfter == errorsBefore, let pattern else { return nil }
        context.checkContentLength(response, at: location(node, context))
        return Stub(
            id: context.stubID(index: index),
            name: name.isEmpty ? "\(pattern.method ?? "*") \(pattern.path.text)" : name,
            description: description,
            request: pattern,
            response: response,
            priority: priority,
            source: location(node, context),
            sequence: sequence
        )
    }

    /// What a request object is read for: a stub's request (method `GET` and a path unless given),
    /// or a query of the request journal (any method and any path unless given).
    enum RequestPurpose {
        case stub
        case journalQuery
    }

    /// A request object alone, the keys of a stub's `"request"`: the pattern
    /// `POST /__apicheck/requests/find` and `/count` match the journal with, so they select
    /// requests exactly as stubs do.
    package func decodeRequestPattern(_ bytes: [UInt8], context: inout StubFileContext) -> RequestPattern? {
        do {
            let document = try JSONParser(maximumDepth: context.options.maximumJSONDepth).parse(bytes)
            return decodeRequest(document, context: &context, purpose: .journalQuery)
        } catch {
            context.error("invalid JSON: \(error.message)", at: context.location(error.position.line, error.position.column))
            return nil
        }
    }

    private func decodeRequest(_ node: JSONNode, context: inout StubFileContext, purpose: RequestPurpose) -> RequestPattern? {
        let what = purpose == .stub ? "\"request\"" : "a request pattern"
        guard object(node, named: what, keys: Self.requestKeys, context: &context) != nil else { return nil }
        var method: String? = purpose == .stub ? "GET" : "*"
        if let value = node["method"], let text = string(value, named: "request.method", context: &context) {
            method = context.method(text, at: location(value, context))
        }
        let parsedPath: (PathPattern, [ValueConstraint])?
        if let pathNode = node["path"] {
            // Keep checking after a bad path, so one pass reports every problem.
            parsedPath = string(pathNode, named: "request.path", context: &context).flatMap { context.path($0, at: location(pathNode, context)) }
        } else if purpose == .journalQuery {
            parsedPath = (PathPattern.anything, [])
        } else {
            context.error("\"request\" needs a \"path\" (e.g. \"/users\")", at: location(node, context))
            return nil
        }

        var query = parsedPath?.1 ?? []
        if let value = node["query"] { query += nameValues(value, named: "request.query", context: &context).map { ValueConstraint(name: $0.name, value: $0.value) } }
        var headers: [ValueConstraint] = []
        if let value = node["headers"] { headers = nameValues(value, named: "request.headers", context: &context).map { ValueConstraint(name: $0.name, value: $0.value) } }

        var body: [BodyConstraint] = []
        if let value = node["bodyJSON"] {
            if case .array(let elements) = value.kind {
                for element in elements {
                    guard object(element, named: "a bodyJSON entry", keys: Self.bodyJSONKeys, context: &context) != nil,
                        let pointerNode = element["path"], let pointer = string(pointerNode, named: "bodyJSON path", context: &context)
                    else {
                        if element.members != nil, element["path"] == nil {
                            context.error("a bodyJSON entry needs \"path\" and \"equals\"", at: location(element, context))
                        }
                        continue
                    }
                    if !pointer.isEmpty, !pointer.hasPrefix("/") {
                        context.error("bodyJSON path \"\(pointer)\" is not a JSON Pointer (it starts with '/', e.g. /movieId)", at: location(pointerNode, context))
                        continue
                    }
                    guard let equalsNode = element["equals"] else {
                        context.error("a bodyJSON entry needs \"equals\"", at: location(element, context))
                        continue
                    }
                    let equals: String
                    if case .string(let text) = equalsNode.kind { equals = text } else { equals = JSONWriter().string(equalsNode.value) }
                    body.append(.jsonPointer(path: pointer, equals: equals))
                }
            } else {
                context.error("request.bodyJSON must be an array of {\"path\", \"equals\"}, not \(value.typeName)", at: location(value, context))
            }
        }
        if let value = node["bodyContains"], let text = string(value, named: "request.bodyContains", context: &context) {
            body.append(.contains(text))
        }

        var origin: OriginConstraint?
        if let value = node["matchHost"], bool(value, named: "request.matchHost", context: &context) == true {
            let scheme = node["scheme"].flatMap { string($0, named: "request.scheme", context: &context) }
            let host = node["host"].flatMap { string($0, named: "request.host", context: &context) }
            var port = node["port"].flatMap { integer($0, named: "request.port", context: &context) }
            if let value = port, !(0...65535).contains(value), let portNode = node["port"] {
                context.error("request.port \(value) is not a TCP port (0-65535)", at: location(portNode, context))
                port = nil
            }
            origin = OriginConstraint(scheme: scheme, host: host, port: port)
        }
        let example = node["example"].flatMap { value in
            string(value, named: "request.example", context: &context).flatMap { context.example($0, for: parsedPath?.0, at: location(value, context)) }
        }
        guard let path = parsedPath?.0 else { return nil }
        return RequestPattern(
            method: method == "*" ? nil : method, path: path, query: query, headers: headers, body: body, origin: origin, example: example)
    }

    private func decodeResponse(_ node: JSONNode, into response: inout StubResponse, context: inout StubFileContext) {
        guard object(node, named: "\"response\"", keys: Self.responseKeys, context: &context) != nil else { return }
        if let value = node["status"] {
            if let status = integer(value, named: "response.status", context: &context) {
                response.status = context.status(status, text: "\(status)", at: location(value, context)) ?? response.status
            }
        } else if response.failure == nil {
            context.error("\"response\" needs a \"status\" (e.g. 200)", at: location(node, context))
        }
        if let value = node["headers"] {
            response.headers = nameValues(value, named: "response.headers", context: &context).compactMap { pair in
                guard let value = pair.value else {
                    context.error("response header \"\(pair.name)\" needs a value", at: location(pair.position, context))
                    return nil
                }
                return HTTPHeader(name: context.repeatedStrings.shared(pair.name), value: context.repeatedStrings.shared(value))
            }
        }
        if let value = node["cookies"] {
            if case .array(let elements) = value.kind {
                response.cookies = elements.compactMap { decodeCookie($0, context: &context) }
            } else {
                context.error("response.cookies must be an array of cookie objects, not \(value.typeName)", at: location(value, context))
            }
        }

        let sources = ["body", "bodyText", "bodyFile", "template"].compactMap { key in node[key].map { (key, $0) } }
        if sources.count > 1 {
            context.error("a stub has one body: \"body\", \"bodyText\", \"bodyFile\" or \"template\", not \(sources.map { "\"\($0.0)\"" }.joined(separator: " and "))", at: location(sources[1].1, context))
            return
        }
        guard let (key, value) = sources.first else { return }
        switch key {
        case "body":
            // Compact, in the author's key order, as a JSON server would send it.
            response.body = .bytes(Data(JSONWriter(style: .compact).bytes(value.value)))
        case "bodyText":
            if let text = string(value, named: "response.bodyText", context: &context) { response.body = .bytes(Data(text.utf8)) }
        case "bodyFile":
            if let path = string(value, named: "response.bodyFile", context: &context), let file = context.file(path, at: location(value, context)) {
                response.body = .file(file)
            }
        default:
            decodeTemplate(value, into: &response, context: &context)
        }
    }

    private func decodeTemplate(_ value: JSONNode, into response: inout StubResponse, context: inout StubFileContext) {
        var pathNode = value
        var variables: [String: JSONValue] = [:]
        if value.members != nil {
            guard object(value, named: "response.template", keys: Self.templateKeys, context: &context) != nil else { return }
            guard let node = value["path"] else {
                context.error("response.template needs a \"path\"", at: location(value, context))
                return
            }
            pathNode = node
            if let variablesNode = value["variables"], let members = variablesNode.members {
                for member in members where variables[member.key] == nil {
                    variables[member.key] = member.value.value
                }
            } else if let variablesNode = value["variables"] {
                context.error("response.template.variables must be an object, not \(variablesNode.typeName)", at: location(variablesNode, context))
            }
        }
        guard let path = string(pathNode, named: "response.template path", context: &context),
            let file = context.file(path, at: location(pathNode, context))
        else { return }
        response.body = .template(StubTemplate(file: file, variables: variables))
    }

    private func decodeCookie(_ node: JSONNode, context: inout StubFileContext) -> StubCookie? {
        guard object(node, named: "a cookie", keys: Self.cookieKeys, context: &context) != nil else { return nil }
        guard let nameNode = node["name"], let name = string(nameNode, named: "cookie name", context: &context), !name.isEmpty else {
            if node["name"] == nil { context.error("a cookie needs a \"name\"", at: location(node, context)) }
            return nil
        }
        var cookie = StubCookie(name: name, value: node["value"].flatMap { string($0, named: "cookie value", context: &context) } ?? "")
        cookie.path = node["path"].flatMap { string($0, named: "cookie path", context: &context) }
        cookie.domain = node["domain"].flatMap { string($0, named: "cookie domain", context: &context) }
        cookie.secure = node["secure"].flatMap { bool($0, named: "cookie secure", context: &context) } ?? false
        cookie.httpOnly = node["httpOnly"].flatMap { bool($0, named: "cookie httpOnly", context: &context) } ?? false
        if let value = node["expires"], let text = string(value, named: "cookie expires", context: &context) {
            cookie.expires = context.cookieExpiry(text, at: location(value, context))
        }
        cookie.maxAge = node["maxAge"].flatMap { integer($0, named: "cookie maxAge", context: &context) }
        if let value = node["sameSite"], let text = string(value, named: "cookie sameSite", context: &context) {
            cookie.sameSite = StubCookie.SameSite.allCases.first { $0.rawValue.caseInsensitiveCompare(text) == .orderedSame }
            if cookie.sameSite == nil { context.error("cookie sameSite \"\(text)\" must be Strict, Lax or None", at: location(value, context)) }
        }
        return cookie
    }

    /// `{"Name": "value"}` (order kept) or `[{"name": …, "value": …}]` (repeats allowed).
    private func nameValues(_ node: JSONNode, named name: String, context: inout StubFileContext) -> [(name: String, value: String?, position: JSONPosition)] {
        switch node.kind {
        case .object(let members):
            return members.compactMap { member in
                switch member.value.kind {
                case .string(let value): return (member.key, value, member.keyPosition)
                case .null: return (member.key, nil, member.keyPosition)
                default:
                    context.error("\(name) \"\(member.key)\" must be a string, not \(member.value.typeName)", at: location(member.value, context))
                    return nil
                }
            }
        case .array(let elements):
            return elements.compactMap { element in
                guard object(element, named: "an entry of \(name)", keys: Self.nameValueKeys, context: &context) != nil else { return nil }
                guard let nameNode = element["name"], let entryName = string(nameNode, named: "\(name) name", context: &context) else {
                    if element["name"] == nil { context.error("an entry of \(name) needs a \"name\"", at: location(element, context)) }
                    return nil
                }
                let value = element["value"].flatMap { string($0, named: "\(name) value", context: &context) }
                return (entryName, value, element.position)
            }
        default:
            context.error("\(name) must be an object or an array of {\"name\", \"value\"}, not \(node.typeName)", at: location(node, context))
            return []
        }
    }
}
