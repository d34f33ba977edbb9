import APICheckJSON
import APICheckProbe
import Testing

@Suite struct ProbeCaseTests {
    @Test func aCaseIsValidUnlessItBreaksAConstraint() {
        #expect(ProbeCase(label: "valid: defaults", body: .object([])).isValid)
        #expect(!ProbeCase(label: "title: missing", field: "title", body: .object([]), breaks: "required").isValid)
    }
}
