import APICheckJSON
import APICheckModel
import Testing

@testable import APICheckOpenAPI

/// The OpenAPI runtime expression grammar: every form read, wrong ones refused with a reason,
/// values taken from an exchange.
@Suite struct RuntimeExpressionTests {
    static let context = RuntimeContext(
        url: "http://localhost/users/7?page=2", method: "GET", statusCode: 200,
        requestHeaders: [HTTPHeader(name: "Accept", value: "application/json")], requestQuery: ["page": "2"],
        requestPath: ["id": "7"], responseHeaders: [HTTPHeader(name: "Location", value: "/users/7/repos")],
        responseBody: .object([
            JSONMember("id", 42), JSONMember("name", "Ada"), JSONMember("owner", .object([JSONMember("a/b", "slash"), JSONMember("~x", "tilde")])),
            JSONMember("tags", .array(["x", "y"])), JSONMember("active", true), JSONMember("none", .null),
        ]))

    @Test(arguments: [
        ("$url", "http://localhost/users/7?page=2"),
        ("$method", "GET"),
        ("$statusCode", "200"),
        ("$request.path.id", "7"),
        ("$request.query.page", "2"),
        ("$request.header.accept", "application/json"),
        ("$response.header.Location", "/users/7/repos"),
        ("$response.body#/id", "42"),
        ("$response.body#/name", "Ada"),
        ("$response.body#/owner/a~1b", "slash"),
        ("$response.body#/owner/~0x", "tilde"),
        ("$response.body#/tags/1", "y"),
        ("$response.body#/active", "true"),
    ])
    func evaluates(_ text: String, _ expected: String) throws {
        let expression = try RuntimeExpression(text)
        #expect(expression.description == text)
        #expect(try LinkValue(.string(text)).text(in: Self.context) == expected)
    }

    @Test(arguments: [
        "$response.body#/missing", "$response.body#/tags/9", "$request.path.other", "$request.query.none", "$response.header.X-None",
        "$response.body#/none", "$response.body#/owner", "$request.body#/id",
    ])
    func hasNoValue(_ text: String) throws {
        #expect(try LinkValue(.string(text)).text(in: Self.context) == nil)
    }

    @Test(arguments: [
        "$", "$uri", "$request", "$request.", "$request.path.", "$request.query.", "$response.header.", "$response.header.bad name",
        "$response.header.a:b", "$response.body#id", "$response.body#/a~2", "$response.cookie.x", "$requests.path.id",
    ])
    func refusesWithAReason(_ text: String) {
        #expect(throws: RuntimeExpressionError.self) { try RuntimeExpression(text) }
    }

    @Test func refusesAnOverlongExpression() {
        let text = "$response.body#/" + String(repeating: "a", count: RuntimeExpression.maximumLength)
        #expect(throws: RuntimeExpressionError.self) { try RuntimeExpression(text) }
    }

    @Test func theWholeBody() throws {
        #expect(try RuntimeExpression("$response.body") == .response(.body(pointer: "")))
        #expect(try RuntimeExpression("$request.body#/user/uuid") == .request(.body(pointer: "/user/uuid")))
    }

    @Test func constantsAndEmbeddedExpressions() throws {
        #expect(try LinkValue(.string("open")).text(in: Self.context) == "open")
        #expect(try LinkValue(.number("3")).text(in: Self.context) == "3")
        #expect(try LinkValue(.bool(false)).text(in: Self.context) == "false")
        #expect(try LinkValue(.object([])).text(in: Self.context) == nil)
        #expect(try LinkValue(.string("user-{$response.body#/id}.json")).text(in: Self.context) == "user-42.json")
        #expect(try LinkValue(.string("{$request.path.id}/{$response.body#/name}")).text(in: Self.context) == "7/Ada")
        #expect(try LinkValue(.string("{$response.body#/missing}")).text(in: Self.context) == nil)
        #expect(throws: RuntimeExpressionError.self) { try LinkValue(.string("{$response.body#/id")) }
        #expect(throws: RuntimeExpressionError.self) { try LinkValue(.string("x{$nope}")) }
    }
}
