import APICheckJSON
import Foundation

extension Stub {
    /// The normalised stub as JSON: what `apicheck show` prints and the admin API lists.
    ///
    /// The body is included as `text` when it is UTF-8 and as `base64` otherwise; a body file is
    /// read for it (up to `maximumBodyBytes`; larger bodies give only their size).
    public func jsonValue(maximumBodyBytes: Int = 16 << 20) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember("id", .string(id)),
            JSONMember("name", .string(name)),
            JSONMember("description", .string(description)),
            JSONMember("source", .object(["path": .string(source.path), "line": .number(Double(source.line)), "column": .number(Double(source.column))])),
            JSONMember("request", request.jsonValue),
            JSONMember("priority", .number(Double(priority))),
        ]
        if let scenario {
            members.append(JSONMember("scenario", .object(["useCase": .string(scenario.useCase), "name": .string(scenario.name)])))
        }
        members.append(JSONMember("response", response.jsonValue(maximumBodyBytes: maximumBodyBytes)))
        if let sequence {
            // Every response of the sequence, in the order it answers (the first is `response`).
            members.append(JSONMember("sequence", .object([
                JSONMember("afterLast", .string(sequence.afterLast.rawValue)),
                JSONMember("responses", .array(sequence.responses.map { $0.jsonValue(maximumBodyBytes: maximumBodyBytes) })),
            ])))
        }
        return .object(members)
    }
}

extension RequestPattern {
    public var jsonValue: JSONValue {
        var members: [JSONMember] = [
            JSONMember("method", method.map(JSONValue.string) ?? .string("*")),
            JSONMember("path", .string(path.text)),
            JSONMember("pathKind", .string(["glob", "template", "literal"][path.kind.rawValue])),
        ]
        if !query.isEmpty { members.append(JSONMember("query", .array(query.map(\.jsonValue)))) }
        if !headers.isEmpty { members.append(JSONMember("headers", .array(headers.map(\.jsonValue)))) }
        if !body.isEmpty {
            members.append(JSONMember("body", .array(body.map { constraint in
                switch constraint {
                case .jsonPointer(let path, let equals): .object(["jsonPointer": .string(path), "equals": .string(equals)])
                case .contains(let text): .object(["contains": .string(text)])
                }
            })))
        }
        if let origin {
            var parts: [JSONMember] = []
            if let scheme = origin.scheme { parts.append(JSONMember("scheme", .string(scheme))) }
            if let host = origin.host { parts.append(JSONMember("host", .string(host))) }
            if let port = origin.port { parts.append(JSONMember("port", .number(Double(port)))) }
            members.append(JSONMember("origin", .object(parts)))
        }
        return .object(members)
    }
}

extension ValueConstraint {
    var jsonValue: JSONValue {
        .object(["name": .string(name), "value": value.map(JSONValue.string) ?? .null])
    }
}

extension StubResponse {
    public func jsonValue(maximumBodyBytes: Int) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember("status", .number(Double(status))),
            JSONMember("headers", .array(headers.map { .object(["name": .string($0.name), "value": .string($0.value)]) })),
            JSONMember("cookies", .array(cookies.map(\.jsonValue))),
            JSONMember("body", body.jsonValue(maximumBytes: maximumBodyBytes)),
        ]
        if !latency.isZero {
            members.append(JSONMember("latency", .object(["request": .number(latency.request), "response": .number(latency.response)])))
        }
        if let failure { members.append(JSONMember("failure", .string(failure.rawValue))) }
        return .object(members)
    }
}

extension StubCookie {
    var jsonValue: JSONValue {
        var members: [JSONMember] = [JSONMember("name", .string(name)), JSONMember("value", .string(value))]
        if let path { members.append(JSONMember("path", .string(path))) }
        if let domain { members.append(JSONMember("domain", .string(domain))) }
        members.append(JSONMember("secure", .bool(secure)))
        members.append(JSONMember("httpOnly", .bool(httpOnly)))
        if let expires { members.append(JSONMember("expires", .string(HTTPDate.rfc1123(expires)))) }
        if let maxAge { members.append(JSONMember("maxAge", .number(Double(maxAge)))) }
        if let sameSite { members.append(JSONMember("sameSite", .string(sameSite.rawValue))) }
        members.append(JSONMember("setCookie", .string(setCookieValue)))
        return .object(members)
    }
}

extension StubBody {
    func jsonValue(maximumBytes: Int) -> JSONValue {
        switch self {
        case .bytes(let data):
            return .object(Self.content(data))
        case .file(let file):
            var members = [JSONMember("file", .string(file.declaredPath)), JSONMember("resolvedPath", .string(file.url.path))]
            if let data = try? file.contents(maximumBytes: maximumBytes) {
                members += Self.content(data)
            } else {
                members.append(JSONMember("byteCount", .number(Double(file.byteCount))))
            }
            return .object(members)
        case .template(let template):
            var members = [JSONMember("template", .string(template.file.declaredPath)), JSONMember("resolvedPath", .string(template.file.url.path))]
            if !template.variables.isEmpty {
                members.append(JSONMember("variables", .object(template.variables.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) })))
            }
            return .object(members)
        }
    }

    private static func content(_ data: Data) -> [JSONMember] {
        if let text = String(validating: data, as: UTF8.self) {
            return [JSONMember("byteCount", .number(Double(data.count))), JSONMember("encoding", "utf-8"), JSONMember("text", .string(text))]
        }
        return [JSONMember("byteCount", .number(Double(data.count))), JSONMember("encoding", "base64"), JSONMember("base64", .string(data.base64EncodedString()))]
    }
}

extension Diagnostic {
    public var jsonValue: JSONValue {
        .object([
            "severity": .string(severity.rawValue), "path": .string(location.path),
            "line": .number(Double(location.line)), "column": .number(Double(location.column)), "message": .string(message),
        ])
    }
}
