import APICheckModel
import APICheckStubFiles
import Foundation
import Testing

/// The loader compiles every template a stub uses, so `lint`, `serve`, reloads and the test
/// helpers all refuse a broken one the same way, with its location.
@Suite struct TemplateCheckTests {
    @Test func aFileWhoseTemplateDoesNotCompileIsInvalidAndTheOthersLoad() throws {
        let folder = try TemporaryFolder()
        try folder.write("good.json", #"{"request": {"path": "/good"}, "response": {"status": 200, "template": "good.mustache"}}"#)
        try folder.write("good.mustache", "fine {{request.path}}")
        try folder.write("broken.json", #"{"request": {"path": "/broken"}, "response": {"status": 200, "template": "broken.mustache"}}"#)
        try folder.write("also-broken.json", #"{"request": {"path": "/also"}, "response": {"status": 200, "template": "broken.mustache"}}"#)
        try folder.write("broken.mustache", "line one\n{{#open}}never closed\n")

        let result = StubLoader().load([folder.path])
        #expect(result.stubSet.stubs.map(\.request.path.text) == ["/good"])
        #expect(result.files.map { "\(FileManager.default.displayName(atPath: $0.path)) \($0.isValid)" } == ["also-broken.json false", "broken.json false", "good.json true"])
        // Reported once, at the template, however many files use it.
        let errors = result.errors
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.location.path.hasSuffix("broken.mustache") == true)
        #expect(errors.first?.location.line == 2, "\(errors)")
    }

    @Test func aTemplateNameTheContextCannotProvideIsAWarningAndTheStubLoads() throws {
        let folder = try TemporaryFolder()
        try folder.write("movie.json", #"{"request": {"path": "/movie"}, "response": {"status": 200, "template": {"path": "movie.mustache", "variables": {"title": "Up"}}}}"#)
        try folder.write("movie.mustache", "{{titel}}")
        let result = StubLoader().load([folder.path])
        #expect(result.stubSet.count == 1)
        #expect(result.errors.isEmpty)
        #expect(result.warnings.count == 1, "\(result.warnings)")
    }
}
