import APICheckModel

extension TemplateRenderer {
    /// Load-time checks of every template a stub set uses (each response of each sequence), each
    /// template file and variable set once: what `apicheck lint`, `apicheck serve`, the test helpers
    /// and `withStubServer(loading:)` all run after loading, so that a broken template is reported
    /// with its location before a request needs it. Errors and warnings, as ``diagnose(_:)`` gives them.
    public func diagnose(_ stubs: StubSet) -> [Diagnostic] {
        var checked = Set<String>()
        var diagnostics: [Diagnostic] = []
        for stub in stubs.stubs {
            for response in stub.sequence?.responses ?? [stub.response] {
                guard case .template(let template) = response.body,
                    checked.insert(template.file.url.path + "\u{0}" + template.variables.description).inserted
                else { continue }
                diagnostics += diagnose(template)
            }
        }
        return diagnostics
    }
}
