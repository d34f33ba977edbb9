import APICheckModel

/// What selecting a scenario does beyond what the test may expect. Every stub file is scenario
/// `<file name>` of use case `<folder>`, and a selection takes every other file of the folder out.
/// In a PESimu-Select tree (`screen/use-case/scenario.xml`) the other files are alternatives of
/// the selected one; in a flat folder every file is a scenario of `.`, so selecting `login-fails`
/// also silenced `items.json`. The model keeps that rule (the server and the crawler share it);
/// the test says so at the `select` call instead of leaving a miss to puzzle over.
struct ScenarioCheck {
    /// No such use case or scenario: the selection takes the whole use case out.
    var failure: String?
    /// Files the selection takes out though they answer requests the scenario does not.
    var warning: String?

    init(_ stubs: [Stub], scenario: String, useCase: String) {
        let inUseCase = stubs.filter { $0.scenario?.useCase == useCase }
        guard !inUseCase.isEmpty else {
            let known = Set(stubs.compactMap(\.scenario?.useCase)).sorted()
            failure = "select(\"\(scenario)\", for: \"\(useCase)\"): no stub file is in use case \"\(useCase)\" (the folder, relative to the one loaded; \".\" is its top level); use cases: \(known.joined(separator: ", "))"
            return
        }
        let selected = inUseCase.filter { $0.scenario?.name == scenario }
        guard !selected.isEmpty else {
            let known = Set(inUseCase.compactMap(\.scenario?.name)).sorted()
            failure = "select(\"\(scenario)\", for: \"\(useCase)\"): use case \"\(useCase)\" has no scenario \"\(scenario)\" (a scenario is a file name without its extension); its scenarios: \(known.joined(separator: ", "))"
            return
        }
        let answered = Set(selected.map(Self.route))
        var silenced: [String: [String]] = [:]
        for stub in inUseCase where stub.scenario?.name != scenario && !answered.contains(Self.route(stub)) {
            silenced[stub.scenario?.name ?? "", default: []].append(Self.route(stub))
        }
        guard !silenced.isEmpty else { return }
        let files = silenced.keys.sorted().map { "\($0) (\(silenced[$0]!.joined(separator: ", ")))" }
        warning = "select(\"\(scenario)\", for: \"\(useCase)\") also takes out \(files.count) \(files.count == 1 ? "scenario" : "scenarios") answering requests \"\(scenario)\" does not: \(files.joined(separator: "; ")). Every file of a folder is a scenario of that folder's use case: put the alternatives in a folder of their own (e.g. login/ok.json, login/fails.json) and select(\"fails\", for: \"login\")."
    }

    private static func route(_ stub: Stub) -> String { "\(stub.request.method ?? "any") \(stub.request.path.text)" }
}
