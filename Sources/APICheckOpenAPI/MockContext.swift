import APICheckJSON
import APICheckModel
import APICheckSchema
import Foundation

/// The work of ``OpenAPIStubBuilder`` for one document: which answers each operation has, their
/// bodies and headers, with generators made once per schema.
struct MockContext {
    let document: OpenAPIDocument
    let seed: UInt64
    let maximumExamples: Int
    private(set) var diagnostics: [Diagnostic] = []
    private var generated: [String: JSONValue?] = [:]

    init(document: OpenAPIDocument, seed: UInt64, maximumExamples: Int) {
        self.document = document
        self.seed = seed
        self.maximumExamples = maximumExamples
    }

    /// One answer: a documented response at a concrete status.
    struct Answer {
        var response: OpenAPIResponse
        var status: Int
    }

    /// The statuses an operation answers with: codes as written, a range at its first code
    /// (`4XX` → 400), `default` at 200 when nothing else is a success and 500 otherwise; a status
    /// already taken by an earlier response is left out. The first is the default answer.
    static func answers(of operation: OpenAPIOperation) -> [Answer] {
        let hasSuccess = operation.responses.contains { $0.status.hasPrefix("2") || $0.status.hasPrefix("3") }
        var answers: [Answer] = []
        for response in operation.responses {
            let status: Int
            if let code = Int(response.status) {
                status = code
            } else if response.status == "default" {
                status = hasSuccess ? 500 : 200
            } else if let first = response.status.first?.wholeNumberValue {
                status = first * 100
            } else {
                continue
            }
            guard (100...599).contains(status), !answers.contains(where: { $0.status == status }) else { continue }
            answers.append(Answer(response: response, status: status))
        }
        // The default answer first: the lowest 2xx, else the lowest 3xx (codes and ranges, not
        // `default`), else `default`, else the first; the others in documented order.
        let documented = answers.filter { $0.response.status != "default" }
        let chosen = documented.filter { (200..<300).contains($0.status) }.min { $0.status < $1.status }
            ?? documented.filter { (300..<400).contains($0.status) }.min { $0.status < $1.status }
            ?? answers.first { $0.response.status == "default" } ?? answers.first
        guard let chosen, let index = answers.firstIndex(where: { $0.status == chosen.status }) else { return answers }
        answers.remove(at: index)
        return [chosen] + answers
    }

    mutating func stubFiles(for operation: OpenAPIOperation) -> [OpenAPIStubFile] {
        let answers = Self.answers(of: operation)
        let base = Self.fileStem(operation)
        let pathExample = pathExample(for: operation)
        var files: [OpenAPIStubFile] = []
        for (index, answer) in answers.enumerated() {
            let isDefault = index == 0
            let content = self.content(of: answer.response)
            let headers = self.headers(of: answer.response, contentType: content?.contentType)
            let description = document.node(at: answer.response.pointer)?["description"]?.stringValue ?? ""
            let choices = content?.choices ?? [(name: nil, body: nil)]
            // The status's own stub: the first example (or the generated body).
            var variants: [(example: String?, body: JSONValue?, prefer: String?)] = [
                (nil, choices[0].body, isDefault ? nil : "code=\(answer.status)")
            ]
            for choice in choices {
                guard let name = choice.name else { continue }
                variants.append((name, choice.body, isDefault ? "example=\(name)" : "code=\(answer.status), example=\(name)"))
            }
            for variant in variants {
                var name = "\(base).\(answer.status)"
                if let example = variant.example { name += "." + Self.slug(example) }
                var stubName = "\(operation.operationId ?? operation.name) \(answer.status)"
                if let example = variant.example { stubName += " \(example)" }
                let why = isDefault && variant.prefer == nil ? "the default answer" : "answers Prefer: \(variant.prefer ?? "")"
                var request: [JSONMember] = [JSONMember("method", .string(operation.method)), JSONMember("path", .string(Self.stubPath(operation.path)))]
                if let prefer = variant.prefer {
                    request.append(JSONMember("headers", .array([.object([JSONMember("name", "Prefer"), JSONMember("value", .string(prefer))])])))
                }
                if let pathExample { request.append(JSONMember("example", .string(pathExample))) }
                var response: [JSONMember] = [JSONMember("status", .number(String(answer.status)))]
                if !headers.isEmpty { response.append(JSONMember("headers", .object(headers))) }
                if let body = variant.body, let content {
                    if content.isJSON, let text = Self.embeddedJSONText(body) {
                        // JSON written as a YAML block string (api-with-examples does): sent as written.
                        response.append(JSONMember("bodyText", .string(text)))
                    } else if content.isJSON {
                        response.append(JSONMember("body", body))
                    } else if case .string(let text) = body {
                        response.append(JSONMember("bodyText", .string(text)))
                    } else {
                        response.append(JSONMember("bodyText", .string(JSONWriter().string(body))))
                    }
                }
                let json = JSONValue.object([
                    JSONMember("name", .string(stubName)),
                    JSONMember("description", .string(([
                        "\(operation.name) → \(answer.status) (documented as \(answer.response.status), \(why)).", description,
                    ].filter { !$0.isEmpty }).joined(separator: " "))),
                    JSONMember("request", .object(request)),
                    JSONMember("response", .object(response)),
                ])
                files.append(OpenAPIStubFile(
                    name: name + ".json", operation: operation.name, status: answer.status, example: variant.example, prefer: variant.prefer, json: json))
            }
        }
        return files
    }

    // MARK: Bodies

    struct Content {
        var contentType: String
        var isJSON: Bool
        /// The first is the status's own body; named ones are examples.
        var choices: [(name: String?, body: JSONValue?)]
    }

    /// The media type a stub answers with (the first JSON one, else the first), its examples, or
    /// a body generated from its schema.
    mutating func content(of response: OpenAPIResponse) -> Content? {
        guard let mediaType = response.mediaTypes.first(where: { OpenAPIContract.isJSON($0.type) && !$0.type.contains("*") })
            ?? response.mediaTypes.first
        else { return nil }
        let contentType = Self.concreteType(mediaType.type)
        let isJSON = OpenAPIContract.isJSON(contentType)
        guard let pointer = document.resolve(response.pointer + "/content/" + JSONPointer.escape(mediaType.type)) else {
            return Content(contentType: contentType, isJSON: isJSON, choices: [(nil, nil)])
        }
        var choices: [(name: String?, body: JSONValue?)] = []
        if let example = document.node(at: pointer + "/example") {
            choices.append((nil, example.value))
        }
        let named = document.node(at: pointer + "/examples")?.members ?? []
        if named.count > maximumExamples {
            warn("only the first \(maximumExamples) of \(named.count) examples become stubs", at: pointer + "/examples")
        }
        for member in named.prefix(maximumExamples) {
            guard let example = document.resolve(pointer + "/examples/" + JSONPointer.escape(member.key)),
                let value = document.node(at: example + "/value")
            else {
                warn("the example '\(member.key)' has no value (externalValue is not read): no stub for it", at: pointer + "/examples/" + JSONPointer.escape(member.key))
                continue
            }
            choices.append((member.key, value.value))
        }
        if choices.isEmpty {
            var body = mediaType.schemaLocation == nil ? nil : generate(at: pointer + "/schema")
            // Only JSON is generated; another type gets a generated string, else no body.
            if !isJSON, let value = body, case .string = value {} else if !isJSON { body = nil }
            choices.append((nil, body))
        } else if choices[0].name != nil {
            // No plain `example`: the first named one is also the status's own body.
            choices.insert((nil, choices[0].body), at: 0)
        }
        return Content(contentType: contentType, isJSON: isJSON, choices: choices)
    }

    /// A valid instance of the schema at `pointer`, the same for the same seed; `nil` (with a
    /// warning) when the schema cannot be satisfied or is too large to generate from.
    mutating func generate(at pointer: String) -> JSONValue? {
        if let known = generated[pointer] { return known }
        var value: JSONValue?
        do {
            value = try document.generator(at: pointer).validInstance(seed: seed)
        } catch let error as JSONSchemaError {
            warn("nothing generated from this schema: it cannot be compiled: \(error.message)", at: pointer)
        } catch let error as JSONSchemaGenerationError {
            warn("nothing generated from this schema: \(error)", at: pointer)
        } catch {
            warn("nothing generated from this schema: \(error)", at: pointer)
        }
        generated[pointer] = value
        return value
    }

    /// The text of a string example that is itself a JSON object or array, else `nil`.
    static func embeddedJSONText(_ value: JSONValue) -> String? {
        guard case .string(let text) = value else { return nil }
        let trimmed = text.drop { $0.isWhitespace }
        guard trimmed.first == "{" || trimmed.first == "[" else { return nil }
        guard let parsed = try? JSONParser().parseValue(Array(text.utf8)) else { return nil }
        switch parsed {
        case .object, .array: return text
        default: return nil
        }
    }

    // MARK: Headers

    /// `Content-Type`, then each required header with its example or a generated value.
    mutating func headers(of response: OpenAPIResponse, contentType: String?) -> [JSONMember] {
        var headers: [JSONMember] = []
        if let contentType { headers.append(JSONMember("Content-Type", .string(contentType))) }
        for name in response.requiredHeaders {
            let place = response.pointer + "/headers/" + JSONPointer.escape(name)
            guard let pointer = document.resolve(place) else { continue }
            let value = document.node(at: pointer + "/example")?.value
                ?? document.node(at: pointer + "/examples")?.members?.first.flatMap { member in
                    document.resolve(pointer + "/examples/" + JSONPointer.escape(member.key)).flatMap { document.node(at: $0 + "/value")?.value }
                }
                ?? (document.node(at: pointer + "/schema") != nil ? generate(at: pointer + "/schema") : nil)
            guard let value, let text = Self.headerText(value) else {
                warn("the required header \(name) has no example and no value could be generated: left out", at: place)
                continue
            }
            headers.append(JSONMember(name, .string(text)))
        }
        return headers
    }

    /// A header's text for a value: strings as they are, scalars as written, arrays joined by
    /// commas (OpenAPI's `simple` style); `nil` for what a header line cannot hold.
    static func headerText(_ value: JSONValue) -> String? {
        let text: String
        switch value {
        case .string(let string): text = string
        case .number(let lexeme): text = lexeme
        case .bool(let flag): text = String(flag)
        case .array(let elements): text = elements.compactMap(headerText).joined(separator: ",")
        default: return nil
        }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return text
    }

    // MARK: Paths and names

    /// A request target the templated path answers, each parameter at its example or a
    /// generated value (`1` when neither is a plain segment): what `apicheck verify` sends.
    mutating func pathExample(for operation: OpenAPIOperation) -> String? {
        guard operation.path.contains("{") else { return nil }
        var values: [String: String] = [:]
        for pointer in [operation.pathItemPointer, operation.pointer] {
            for element in document.node(at: pointer + "/parameters")?.elements?.indices ?? 0..<0 {
                guard let parameter = document.resolve(pointer + "/parameters/\(element)"),
                    document.node(at: parameter + "/in")?.stringValue == "path",
                    let name = document.node(at: parameter + "/name")?.stringValue
                else { continue }
                let value = document.node(at: parameter + "/example")?.value
                    ?? (document.node(at: parameter + "/schema") != nil ? generate(at: parameter + "/schema") : nil)
                if let text = value.flatMap(Self.headerText), !text.isEmpty, text.allSatisfy(Self.isPlainSegmentCharacter) {
                    values[name] = text
                }
            }
        }
        var result = ""
        var name: String?
        for character in operation.path {
            if character == "{" {
                name = ""
            } else if character == "}", let parameter = name {
                result += values[parameter] ?? "1"
                name = nil
            } else if name != nil {
                name?.append(character)
            } else {
                result.append(character)
            }
        }
        return Self.stubPath(result)
    }

    /// The path as a stub pattern: what a stub path reads as a glob (`*`), a query (`?`) or a
    /// fragment (`#`), and what a URL cannot hold as such (spaces, controls), percent-escaped, so
    /// a document's literal `/files/*` stays literal. Escapes the document wrote stay as written.
    static func stubPath(_ path: String) -> String {
        var result = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "*", "?", "#", " ", "\"", "<", ">", "\\", "^", "`", "|":
                result += String(format: "%%%02X", scalar.value)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += String(format: "%%%02X", scalar.value)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func isPlainSegmentCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-._~".contains(character))
    }

    /// `listPets`, else `get-pets-petId` from the method and path.
    static func fileStem(_ operation: OpenAPIOperation) -> String {
        if let id = operation.operationId, !slug(id).isEmpty { return slug(id) }
        return slug(operation.method.lowercased() + "-" + operation.path)
    }

    /// Letters, digits and `_`, with `.` after one of them; anything else becomes `-`, runs of it
    /// one, none at the ends; at most 80 characters (`../../x` → `x`: a name never leaves its folder).
    static func slug(_ text: String) -> String {
        var result = ""
        for character in text {
            let word = character.isASCII && (character.isLetter || character.isNumber || character == "_")
            if word || (character == "." && result.last.map { $0 != "-" && $0 != "." } == true) {
                result.append(character)
            } else if !result.isEmpty, result.last != "-" {
                result.append("-")
            }
        }
        while result.hasSuffix("-") || result.hasSuffix(".") { result.removeLast() }
        return String(result.prefix(80))
    }

    /// A type a response can carry: wildcards made concrete (`*/*` and `application/*` → JSON).
    static func concreteType(_ type: String) -> String {
        let essence = OpenAPIContract.essence(type)
        switch essence {
        case "*/*", "application/*": return "application/json"
        case "text/*": return "text/plain"
        default: return essence.hasSuffix("/*") ? String(essence.dropLast(2)) + "/octet-stream" : type
        }
    }

    private mutating func warn(_ message: String, at pointer: String) {
        let at = document.position(of: pointer)
        diagnostics.append(Diagnostic(.warning, message, at: SourceLocation(path: document.file, line: at.line, column: at.column)))
    }
}
