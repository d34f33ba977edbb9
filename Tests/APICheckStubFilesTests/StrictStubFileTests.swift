import APICheckModel
import APICheckStubFiles
import Foundation
import Testing

/// Names a stub format does not know are reported with the closest known one, so a typo is never
/// a stub silently missing what it meant to say.
@Suite struct StrictStubFileTests {
    private func load(_ name: String, _ text: String) throws -> StubLoadResult {
        let folder = try TemporaryFolder()
        _ = try folder.write(name, text)
        return StubLoader().load([folder.path])
    }

    @Test func misspeltXMLAttributesAndElementsAreReportedWithASuggestion() throws {
        let result = try load("typos.xml", """
            <http-response statusCode="200">
              <annotation uri-path="/x" request-methd="POST"/>
              <latency requst="0.5"/>
              <headerz><header name="A" value="b"/></headerz>
            </http-response>
            """)
        let messages = result.warnings.map(\.description)
        #expect(messages.contains { $0.hasSuffix(":2:29: warning: unknown attribute request-methd on <annotation> is ignored (did you mean request-method?)") }, "\(messages)")
        #expect(messages.contains { $0.hasSuffix(":3:12: warning: unknown attribute requst on <latency> is ignored (did you mean request?)") }, "\(messages)")
        #expect(messages.contains { $0.contains("unknown element <headerz> in <http-response> is ignored (did you mean <headers>?)") }, "\(messages)")
        #expect(result.warnings.allSatisfy { $0.code == .unknownName })
        #expect(result.stubSet.count == 1, "the stub still loads; lint --strict and the test helpers refuse it")
    }

    @Test func aMisspeltAnnotationIsNamedInTheError() throws {
        let result = try load("anotation.xml", """
            <http-response statusCode="200">
              <anotation uri-path="/x" request-method="GET"/>
            </http-response>
            """)
        let error = try #require(result.errors.first)
        #expect(error.message.contains("needs an <annotation"))
        #expect(error.message.contains("<anotation> at 2:3 looks like a misspelling of it"))
        #expect(result.errors.count == 1)
    }

    @Test func aBadFailureCodeIsOneError() throws {
        let result = try load("failure.xml", """
            <http-response>
              <annotation uri-path="/x" request-method="GET"/>
              <failure code="timedout-ish"/>
            </http-response>
            """)
        #expect(result.errors.count == 1, "\(result.errors)")
        #expect(result.errors.first?.message.contains("unknown failure code") == true)
    }

    @Test func unknownJSONKeysSuggestTheKnownOne() throws {
        let result = try load("typo.json", #"{"request": {"method": "GET", "path": "/x", "headerz": {"A": "b"}}, "response": {"status": 200, "header": {"A": "b"}}}"#)
        let messages = result.warnings.map(\.message)
        #expect(messages.contains(#"unknown key "headerz" in "request" is ignored (did you mean "headers"?)"#), "\(messages)")
        #expect(messages.contains(#"unknown key "header" in "response" is ignored (did you mean "headers"?)"#), "\(messages)")
    }

    @Test func oneSpellingPerEnumValueAcrossFormats() throws {
        let old = try load("old.json", #"{"request": {"path": "/job"}, "responses": [{"status": 202}], "afterLast": "repeatLast"}"#)
        #expect(old.stubSet.stubs.first?.sequence?.afterLast == .repeatLast)
        #expect(old.warnings.first?.code == .deprecatedSpelling)
        let new = try load("new.json", #"{"request": {"path": "/job"}, "responses": [{"status": 202}], "afterLast": "repeat-last"}"#)
        #expect(new.diagnostics.isEmpty)
        let wrong = try load("wrong.json", #"{"request": {"path": "/job"}, "responses": [{"status": 202}], "afterLast": "repeat_last"}"#)
        #expect(wrong.errors.first?.message == #""afterLast" must be "repeat-last" or "fail" (did you mean "repeat-last"?)"#)
    }

    @Test func namespacedExtensionsPass() throws {
        let result = try load("ns.xml", """
            <http-response statusCode="200" xmlns:team="urn:team" team:owner="payments" team:statusCode="500">
              <annotation uri-path="/x"/>
              <team:note>kept by the payments team</team:note>
            </http-response>
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.stubSet.stubs.first?.response.status == 200, "a namespaced attribute never stands in for ours")
    }

    @Test func suggestionsNeedAPlausibleTypo() {
        #expect(Suggestion.closest(to: "request-methd", in: ["request-method", "uri-path"]) == "request-method")
        #expect(Suggestion.closest(to: "colour", in: ["request", "response"]) == nil)
        #expect(Suggestion.closest(to: "haeders", in: ["headers"]) == "headers", "a swap is one edit")
    }
}
