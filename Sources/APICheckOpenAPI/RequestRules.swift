import APICheckJSON
import APICheckModel
import APICheckSchema
import Foundation

/// What an operation requires of a request, compiled once: its parameters (the path item's and
/// the operation's, the operation's winning by name and place) with their schemas, and its
/// request body's media types and schemas. Schemas compile in OpenAPI 3.0's request direction
/// (a `readOnly` property must not be sent; a `writeOnly` one may be required).
struct RequestRules: Sendable {
    struct Parameter: Sendable {
        enum Place: String, Sendable {
            case path, query, header
        }

        var name: String
        var place: Place
        var required: Bool
        var schema: APICheckSchema.JSONSchema?
        /// The schema's `type` (the first that is not `null`), to read the text as a value.
        var type: String?
        /// For an array: its items' `type`.
        var itemType: String?
        /// Whether an array is sent as repeated query items (`form`'s default) or joined by commas.
        var explode: Bool
    }

    struct Body: Sendable {
        var required: Bool
        var mediaTypes: [(type: String, schema: APICheckSchema.JSONSchema?)]
    }

    var template: [OperationMatcher.Segment]
    /// The parameter names of each template segment.
    var names: [[String]]
    var parameters: [Parameter]
    var body: Body?

    /// The problems found while compiling (schemas that could not be used: their checks are left out).
    static func compile(
        _ operation: OpenAPIOperation, document: OpenAPIDocument, options: JSONSchemaOptions, budget: inout Int, diagnostics: inout [Diagnostic]
    ) -> RequestRules {
        func compile(_ pointer: String) -> APICheckSchema.JSONSchema? {
            guard budget > 0 else { return nil }
            budget -= 1
            do {
                return try document.compileSchema(at: pointer, options: options)
            } catch {
                let at = document.position(of: pointer)
                diagnostics.append(Diagnostic(
                    .warning, "this schema is not checked in requests: \(error.message)", at: SourceLocation(path: document.file, line: at.line, column: at.column)))
                return nil
            }
        }
        var parameters: [Parameter] = []
        for owner in [operation.pathItemPointer, operation.pointer] {
            for index in document.node(at: owner + "/parameters")?.elements?.indices ?? 0..<0 {
                guard let pointer = document.resolve(owner + "/parameters/\(index)"),
                    let name = document.node(at: pointer + "/name")?.stringValue,
                    let place = document.node(at: pointer + "/in")?.stringValue.flatMap(Parameter.Place.init(rawValue:))
                else { continue }
                // OpenAPI: these header parameters are ignored (the transport's own fields).
                if place == .header, ["accept", "content-type", "authorization"].contains(name.lowercased()) { continue }
                let schemaPointer = document.node(at: pointer + "/schema") != nil ? pointer + "/schema" : nil
                let resolved = schemaPointer.flatMap(document.resolve)
                let type = resolved.flatMap { Self.type(at: $0, in: document) }
                let items = resolved.flatMap { document.resolve($0 + "/items") }.flatMap { Self.type(at: $0, in: document) }
                let parameter = Parameter(
                    name: name, place: place, required: place == .path || document.node(at: pointer + "/required")?.value == .bool(true),
                    schema: schemaPointer.flatMap(compile), type: type, itemType: items,
                    explode: document.node(at: pointer + "/explode")?.value != .bool(false))
                parameters.removeAll { $0.name == parameter.name && $0.place == parameter.place }
                parameters.append(parameter)
            }
        }
        var body: Body?
        if let pointer = document.resolve(operation.pointer + "/requestBody") {
            var types: [(type: String, schema: APICheckSchema.JSONSchema?)] = []
            for member in document.node(at: pointer + "/content")?.members ?? [] {
                let media = document.resolve(pointer + "/content/" + JSONPointer.escape(member.key))
                let schema = media.flatMap { document.node(at: $0 + "/schema") != nil ? compile($0 + "/schema") : nil }
                types.append((member.key, schema))
            }
            body = Body(required: document.node(at: pointer + "/required")?.value == .bool(true), mediaTypes: types)
        }
        let names = OperationMatcher.splitPath(operation.path).map { segment in
            segment.split(separator: "{", omittingEmptySubsequences: false).dropFirst().compactMap { $0.split(separator: "}", maxSplits: 1).first.map(String.init) }
        }
        return RequestRules(template: OperationMatcher.segments(of: operation.path), names: names, parameters: parameters, body: body)
    }

    private static func type(at pointer: String, in document: OpenAPIDocument) -> String? {
        guard let type = document.node(at: pointer + "/type") else { return nil }
        if let text = type.stringValue { return text }
        return type.elements?.compactMap(\.stringValue).first { $0 != "null" }
    }

    // MARK: Checking

    /// Why `request` does not meet the rules: the first problem, as a status, a title, a detail
    /// and the failing places.
    struct Refusal: Sendable {
        var status: Int
        var title: String
        var detail: String
        var errors: [JSONValue] = []
    }

    func refusal(of request: StubRequest, maximumBodyDepth: Int) -> Refusal? {
        let pathValues = Self.pathValues(template, names: names, request.path)
        var errors: [JSONValue] = []
        var missing: [String] = []
        for parameter in parameters {
            let texts: [String]
            switch parameter.place {
            case .path: texts = pathValues[parameter.name].map { [$0] } ?? []
            case .query: texts = request.query.filter { $0.name == parameter.name }.map { $0.value ?? "" }
            case .header: texts = request.headers.filter { $0.name.caseInsensitiveEquals(parameter.name) }.map(\.value)
            }
            if texts.isEmpty {
                if parameter.required { missing.append("\(parameter.place.rawValue) parameter '\(parameter.name)'") }
                continue
            }
            guard let schema = parameter.schema else { continue }
            let value = Self.value(texts, for: parameter)
            guard !schema.isValid(value) else { continue }
            for unit in schema.validate(value).relevantErrors.prefix(5) {
                errors.append(.object([
                    JSONMember("in", .string(parameter.place.rawValue)), JSONMember("name", .string(parameter.name)),
                    JSONMember("location", .string(unit.instanceLocation)), JSONMember("keyword", .string(unit.keywordLocation)),
                    JSONMember("message", .string(unit.error)),
                ]))
            }
        }
        if !missing.isEmpty {
            return Refusal(
                status: 400, title: "Missing required parameter",
                detail: "The request lacks the required \(missing.joined(separator: ", ")).",
                errors: missing.map { .object([JSONMember("message", .string("missing " + $0))]) })
        }
        if !errors.isEmpty {
            let names = errors.compactMap { Self.text($0["name"]) }
            var unique: [String] = []
            for name in names where !unique.contains(name) { unique.append(name) }
            return Refusal(
                status: 400, title: "Invalid parameter",
                detail: "The parameter\(unique.count == 1 ? "" : "s") \(unique.map { "'\($0)'" }.joined(separator: ", ")) do\(unique.count == 1 ? "es" : "") not match the document's schema: "
                    + (Self.text(errors.first?["message"]) ?? ""),
                errors: errors)
        }
        return body.flatMap { bodyRefusal(of: request, $0, maximumBodyDepth: maximumBodyDepth) }
    }

    static func text(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    private func bodyRefusal(of request: StubRequest, _ body: Body, maximumBodyDepth: Int) -> Refusal? {
        guard !request.body.isEmpty else {
            return body.required ? Refusal(status: 400, title: "Missing request body", detail: "The operation requires a request body.") : nil
        }
        let served = request.headers.first { $0.name.caseInsensitiveEquals("Content-Type") }?.value
        let documented = body.mediaTypes.map { OpenAPIMediaType(type: $0.type, schemaLocation: nil, schema: $0.schema) }
        guard let mediaType = OpenAPIContract.mediaType(for: served, in: documented) else {
            return Refusal(
                status: 415, title: "Unsupported Media Type",
                detail: "The request body is \(served.map(OpenAPIContract.essence) ?? "without a Content-Type"); the operation accepts \(body.mediaTypes.map(\.type).joined(separator: ", ")).")
        }
        guard let schema = mediaType.schema, OpenAPIContract.isJSON(served ?? mediaType.type) else { return nil }
        let instance: JSONValue
        do {
            instance = try JSONParser(maximumDepth: maximumBodyDepth).parseValue([UInt8](request.body))
        } catch {
            return Refusal(
                status: 400, title: "Malformed request body",
                detail: "The request body is not JSON: \(error.message) (line \(error.position.line), column \(error.position.column)).")
        }
        guard !schema.isValid(instance) else { return nil }
        let units = schema.validate(instance).relevantErrors.prefix(10)
        let errors: [JSONValue] = units.map { unit in
            .object([
                JSONMember("in", "body"), JSONMember("location", .string(unit.instanceLocation)), JSONMember("keyword", .string(unit.keywordLocation)),
                JSONMember("message", .string(unit.error)),
            ])
        }
        let first = units.first
        let place = first.map { $0.instanceLocation.isEmpty ? "the body" : "the body at \($0.instanceLocation)" } ?? "the body"
        return Refusal(
            status: 422, title: "Invalid request body",
            detail: "\(place) does not match the document's schema (\(first?.keywordLocation ?? "")): \(first?.error ?? "invalid")", errors: errors)
    }

    /// The text of a parameter as the value its schema describes: numbers and booleans read as
    /// such when they parse, arrays from repeated items or comma-separated text; strings as sent.
    static func value(_ texts: [String], for parameter: Parameter) -> JSONValue {
        if parameter.type == "array" {
            let items = parameter.explode ? texts : texts.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            return .array(items.map { scalar($0, type: parameter.itemType) })
        }
        return scalar(texts[0], type: parameter.type)
    }

    static func scalar(_ text: String, type: String?) -> JSONValue {
        switch type {
        case "integer", "number":
            if let value = try? JSONParser().parseValue(Array(text.utf8)), case .number = value { return value }
        case "boolean":
            if text == "true" || text == "false" { return .bool(text == "true") }
        default:
            break
        }
        return .string(text)
    }

    /// The values of the template's parameters in `path` (decoded), for segments with one
    /// parameter; segments with several are not read.
    static func pathValues(_ template: [OperationMatcher.Segment], names: [[String]], _ path: String) -> [String: String] {
        let segments = OperationMatcher.splitPath(path)
        guard segments.count == template.count, names.count == template.count else { return [:] }
        var values: [String: String] = [:]
        for (index, (segment, value)) in zip(template, segments).enumerated() {
            guard case .templated(let pieces) = segment, pieces.count == 2, let name = names[index].first else { continue }
            guard value.hasPrefix(pieces[0]), value.hasSuffix(pieces[1]), value.count >= pieces[0].count + pieces[1].count else { continue }
            values[name] = String(value.dropFirst(pieces[0].count).dropLast(pieces[1].count))
        }
        return values
    }
}
