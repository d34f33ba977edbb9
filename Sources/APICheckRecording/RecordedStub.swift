import APICheckJSON
import APICheckModel
import APICheckXML
import Foundation

/// A stub as a recording writes it: the request it matches and the answers recorded for it.
struct RecordedStub: Sendable {
    var name: String
    var description: String
    var method: String
    /// Percent-encoded where stub paths would read a character as syntax (``StubFileNaming/stubPath(_:)``).
    var path: String
    /// Query constraints in order; `nil` = present with any value (a redacted token).
    var query: [(name: String, value: String?)]
    /// Request headers matched on (`--match-header`).
    var headers: [HTTPHeader]
    var responses: [RecordedResponse]
}

struct RecordedResponse: Sendable, Equatable {
    var status: Int
    var headers: [HTTPHeader]
    var body: Body
    /// FNV-1a of the body as written (after redaction), to tell repeated answers apart.
    var bodyDigest: String

    enum Body: Sendable, Equatable {
        case none
        /// JSON sent compactly in this key order: the upstream's bytes were exactly that.
        case json(JSONValue)
        case text(String)
        /// A file beside the stub file (relative to its folder).
        case file(String)
        /// A Mustache template beside the stub file, with `{{baseURL}}` where the upstream's origin was.
        case template(String)
    }
}

/// The text of a recorded stub file, in either stub format; both load to the same model.
enum StubDocument {
    static func json(_ stub: RecordedStub) -> String {
        var members: [JSONMember] = [
            JSONMember("name", .string(stub.name)), JSONMember("description", .string(stub.description)),
        ]
        var request: [JSONMember] = [JSONMember("method", .string(stub.method)), JSONMember("path", .string(stub.path))]
        if !stub.query.isEmpty {
            let names = stub.query.map(\.name)
            if Set(names).count == names.count {
                request.append(JSONMember("query", .object(stub.query.map { JSONMember($0.name, $0.value.map(JSONValue.string) ?? .null) })))
            } else {
                request.append(JSONMember("query", .array(stub.query.map { pairObject($0.name, $0.value.map(JSONValue.string) ?? .null) })))
            }
        }
        if !stub.headers.isEmpty { request.append(JSONMember("headers", headersJSON(stub.headers))) }
        members.append(JSONMember("request", .object(request)))
        if stub.responses.count == 1 {
            members.append(JSONMember("response", responseJSON(stub.responses[0])))
        } else {
            members.append(JSONMember("responses", .array(stub.responses.map(responseJSON))))
            members.append(JSONMember("afterLast", "repeat-last"))
        }
        return JSONWriter(style: .pretty).string(.object(members)) + "\n"
    }

    private static func pairObject(_ name: String, _ value: JSONValue) -> JSONValue {
        .object([JSONMember("name", .string(name)), JSONMember("value", value)])
    }

    private static func headersJSON(_ headers: [HTTPHeader]) -> JSONValue {
        let names = headers.map { $0.name.lowercased() }
        if Set(names).count == names.count {
            return .object(headers.map { JSONMember($0.name, .string($0.value)) })
        }
        return .array(headers.map { pairObject($0.name, .string($0.value)) })
    }

    private static func responseJSON(_ response: RecordedResponse) -> JSONValue {
        var members: [JSONMember] = [JSONMember("status", .number(String(response.status)))]
        if !response.headers.isEmpty { members.append(JSONMember("headers", headersJSON(response.headers))) }
        switch response.body {
        case .none: break
        case .json(let value): members.append(JSONMember("body", value))
        case .text(let text): members.append(JSONMember("bodyText", .string(text)))
        case .file(let path): members.append(JSONMember("bodyFile", .string(path)))
        case .template(let path): members.append(JSONMember("template", .string(path)))
        }
        return .object(members)
    }

    static func xml(_ stub: RecordedStub) -> String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        let sequence = stub.responses.count > 1
        if sequence { lines.append(#"<http-sequence after-last="repeat-last">"#) }
        for (index, response) in stub.responses.enumerated() {
            let indent = sequence ? "  " : ""
            lines.append("\(indent)<http-response statusCode=\"\(response.status)\">")
            if index == 0 {
                lines.append("\(indent)  <annotation name=\"\(attribute(stub.name))\" uri-path=\"\(attribute(stub.path))\" request-method=\"\(attribute(stub.method))\">\(text(stub.description))</annotation>")
                if !stub.query.isEmpty || !stub.headers.isEmpty {
                    lines.append("\(indent)  <request>")
                    for item in stub.query {
                        lines.append("\(indent)    <query name=\"\(attribute(item.name))\"\(item.value.map { " value=\"\(attribute($0))\"" } ?? "")/>")
                    }
                    for header in stub.headers {
                        lines.append("\(indent)    <header name=\"\(attribute(header.name))\" value=\"\(attribute(header.value))\"/>")
                    }
                    lines.append("\(indent)  </request>")
                }
            }
            if !response.headers.isEmpty {
                lines.append("\(indent)  <headers>")
                for header in response.headers {
                    lines.append("\(indent)    <header name=\"\(attribute(header.name))\" value=\"\(attribute(header.value))\"/>")
                }
                lines.append("\(indent)  </headers>")
            }
            switch response.body {
            case .none: break
            case .json(let value): lines.append("\(indent)  <body>\(cdata(JSONWriter().string(value)))</body>")
            case .text(let body): lines.append("\(indent)  <body>\(cdata(body))</body>")
            case .file(let path): lines.append("\(indent)  <body-file path=\"\(attribute(path))\"/>")
            case .template(let path): lines.append("\(indent)  <body-template path=\"\(attribute(path))\"/>")
            }
            lines.append("\(indent)</http-response>")
        }
        if sequence { lines.append("</http-sequence>") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Attribute content, escaped as the XML reports escape it.
    static func attribute(_ value: String) -> String { XMLText.escaped(value) }

    static func text(_ value: String) -> String {
        value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }

    /// CDATA, split where the text itself contains `]]>`.
    static func cdata(_ value: String) -> String {
        "<![CDATA[" + value.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>") + "]]>"
    }
}
