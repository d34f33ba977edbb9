import APICheckCrawler
import APICheckFindings
import APICheckModel
import APICheckOpenAPI
import Foundation
import Testing

/// Security schemes and each operation's effective requirement (document default, operation
/// override, `{}` optional), and what a 401 or 403 means for each.
@Suite struct OpenAPISecurityTests {
    static let document = """
        openapi: 3.1.0
        info: {title: Accounts, version: "1"}
        security:
          - bearer: []
        paths:
          /me:
            get:
              responses: {"200": {description: me}}
          /keys:
            get:
              security:
                - apiKey: []
                - {basic: [], session: []}
              responses: {"200": {description: keys}}
          /public:
            get:
              security: []
              responses: {"200": {description: open}}
          /maybe:
            get:
              security:
                - {}
                - bearer: []
              responses: {"200": {description: more when signed in}}
          /login:
            post:
              responses:
                "200": {description: signed in}
                "401": {description: wrong password}
        components:
          securitySchemes:
            bearer: {type: http, scheme: bearer, bearerFormat: JWT}
            basic: {type: http, scheme: basic}
            apiKey: {type: apiKey, name: X-API-Key, in: header}
            session: {type: apiKey, name: sid, in: cookie}
        """

    func read() throws -> OpenAPIDocument {
        try OpenAPIDocumentReader().read(Array(Self.document.utf8), file: "accounts.yaml")
    }

    func operation(_ document: OpenAPIDocument, _ method: String, _ path: String) throws -> OpenAPIOperation {
        guard case .operation(let operation) = document.operation(method: method, path: path) else {
            Issue.record("\(method) \(path) is not an operation")
            throw CancellationError()
        }
        return operation
    }

    @Test func schemesAndEffectiveRequirements() throws {
        let document = try read()
        #expect(document.security.schemes["bearer"]?.kind == .http(scheme: "bearer"))
        #expect(document.security.schemes["apiKey"]?.kind == .apiKey(name: "X-API-Key", in: "header"))
        #expect(document.security.schemes["session"]?.kind == .apiKey(name: "sid", in: "cookie"))
        #expect(document.security.requirement(of: try operation(document, "GET", "/me")) == [["bearer"]], "the document's default")
        #expect(document.security.requirement(of: try operation(document, "GET", "/keys")) == [["apiKey"], ["basic", "session"]], "the operation's own")
        #expect(document.security.requirement(of: try operation(document, "GET", "/public")) == [], "security: [] needs none")
        #expect(document.security.requiresCredentials(try operation(document, "GET", "/me")))
        #expect(!document.security.requiresCredentials(try operation(document, "GET", "/public")))
        #expect(!document.security.requiresCredentials(try operation(document, "GET", "/maybe")), "{} makes credentials optional")
    }

    @Test func whichCredentialsSatisfyWhichScheme() throws {
        let document = try read()
        let keys = try operation(document, "GET", "/keys")
        let none = OpenAPICredentials()
        #expect(document.security.missingSchemes(for: keys, given: none)?.map(\.name) == ["apiKey"])
        #expect(document.security.missingSchemes(for: keys, given: OpenAPICredentials(headers: [HTTPHeader(name: "x-api-key", value: "k")])) == nil)
        let basicAlone = OpenAPICredentials(headers: [HTTPHeader(name: "Authorization", value: "Basic eDp5")])
        #expect(document.security.missingSchemes(for: keys, given: basicAlone) != nil, "basic and session go together")
        let both = OpenAPICredentials(headers: [HTTPHeader(name: "Authorization", value: "Basic eDp5"), HTTPHeader(name: "Cookie", value: "theme=dark; sid=abc")])
        #expect(document.security.missingSchemes(for: keys, given: both) == nil)
    }

    @Test func a401WithoutCredentialsNamesTheSchemeAndHowToPassIt() throws {
        let contract = OpenAPIContract(document: try read())
        let answer = ContractAnswer(method: "GET", url: URL(string: "http://localhost/me")!, status: 401, headers: [], body: nil)
        #expect(contract.violations(of: answer).isEmpty, "the document's security explains it: not an undocumented status")
        #expect(contract.credentialsNeeded(method: "GET", path: "/me", status: 401)
            == "needs credentials: scheme bearer (HTTP bearer: --header-from-env 'Authorization: Bearer $TOKEN')")
        #expect(contract.credentialsNeeded(method: "GET", path: "/keys", status: 403)?.contains("scheme apiKey (an API key in the X-API-Key header: --header-from-env 'X-API-Key: $API_KEY')") == true)
        var given = contract
        given.credentials = OpenAPICredentials(headers: [HTTPHeader(name: "Authorization", value: "Bearer t")])
        #expect(given.credentialsNeeded(method: "GET", path: "/me", status: 401) == nil, "given: a 401 is then the crawl's link-resolves")
        #expect(contract.credentialsNeeded(method: "GET", path: "/me", status: 500) == nil)
    }

    @Test func a401OfAnOperationThatNeedsNoCredentialsIsAnUndocumentedStatus() throws {
        let contract = OpenAPIContract(document: try read())
        for path in ["/public", "/maybe"] {
            let answer = ContractAnswer(method: "GET", url: URL(string: "http://localhost\(path)")!, status: 401, headers: [], body: nil)
            let violations = contract.violations(of: answer)
            #expect(violations.map(\.rule) == [.openAPIStatus], "\(path)")
            #expect(violations.first?.message.hasSuffix("the document requires no credentials for it (no security requirement)") == true, "\(violations)")
        }
        // A documented 401 is an answer like any other; a 500 stays undocumented whatever the security.
        let login = ContractAnswer(method: "POST", url: URL(string: "http://localhost/login")!, status: 401, headers: [], body: nil)
        #expect(contract.violations(of: login).isEmpty)
        let crash = ContractAnswer(method: "GET", url: URL(string: "http://localhost/me")!, status: 500, headers: [], body: nil)
        #expect(contract.violations(of: crash).map(\.rule) == [.openAPIStatus])
    }

    @Test func anOpenAPI30DocumentHasTheSameSecurity() throws {
        let text = Self.document.replacingOccurrences(of: "openapi: 3.1.0", with: "openapi: 3.0.3")
        let document = try OpenAPIDocumentReader().read(Array(text.utf8), file: "accounts.yaml")
        #expect(document.security.requirement(of: try operation(document, "GET", "/keys")) == [["apiKey"], ["basic", "session"]])
        #expect(!document.security.requiresCredentials(try operation(document, "GET", "/maybe")))
    }
}
