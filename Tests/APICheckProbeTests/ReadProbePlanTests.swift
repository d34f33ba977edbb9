import APICheckProbe
import Testing

@Suite struct ReadProbePlanTests {
    @Test func variesOneVariableAtATimeWithTheOthersObserved() throws {
        let plan = try ReadProbePlan(
            template: "http://h/authors/{authorId}/books/{bookId}",
            observedValues: ["authorId": ["3", "4"], "bookId": ["9", "10"]], budget: 100)
        for request in plan.requests {
            if request.variable == "authorId" {
                #expect(request.url == "http://h/authors/\(request.value.value)/books/9")
            } else {
                #expect(request.variable == "bookId")
                #expect(request.url == "http://h/authors/3/books/\(request.value.value)")
            }
        }
        #expect(plan.requests.prefix(4).map(\.label) == [
            "authorId: one past the largest id (5)", "bookId: one past the largest id (11)", "authorId: 0", "bookId: 0",
        ])
        #expect(plan.requests.prefix(2).map(\.url) == ["http://h/authors/5/books/9", "http://h/authors/3/books/11"])
        #expect(Set(plan.requests.map(\.url)).count == plan.requests.count)
    }

    @Test func preEncodedValuesAreNotEncodedAgain() throws {
        let plan = try ReadProbePlan(template: "http://h/books/{id}", observedValues: ["id": ["1"]], budget: 100)
        let urls = plan.requests.map(\.url)
        #expect(urls.contains("http://h/books/..%2F..%2F..%2Fetc%2Fpasswd"))
        #expect(urls.contains("http://h/books/%C3%A9t%C3%A9%F0%9F%93%9A"))
        #expect(urls.contains("http://h/books/../"))
        #expect(urls.contains("http://h/books/"))
        #expect(urls.contains("http://h/books/%00"))
        #expect(!urls.contains { $0.contains("%25") })
    }

    @Test func keepsTheHost() throws {
        let plan = try ReadProbePlan(template: "https://API.example:8443{/id}{?page}", observedValues: ["id": ["1"], "page": ["2"]], budget: 100)
        #expect(!plan.requests.isEmpty)
        #expect(plan.requests.allSatisfy { $0.url.hasPrefix("https://API.example:8443/") })
        #expect(throws: ReadProbePlanError.hostNotLiteral("http://{host}/books/{id}")) {
            try ReadProbePlan(template: "http://{host}/books/{id}", observedValues: ["host": ["h"], "id": ["1"]], budget: 10)
        }
        #expect(throws: ReadProbePlanError.notAbsolute("/books/{id}")) {
            try ReadProbePlan(template: "/books/{id}", observedValues: ["id": ["1"]], budget: 10)
        }
    }

    @Test func respectsTheBudget() throws {
        let observed = ["id": ["1"], "id2": ["2"]]
        for budget in [0, 1, 3, 7] {
            let plan = try ReadProbePlan(template: "http://h/a/{id}/b/{id2}", observedValues: observed, budget: budget)
            #expect(plan.requests.count == budget)
        }
        let three = try ReadProbePlan(template: "http://h/a/{id}/b/{id2}", observedValues: observed, budget: 3)
        #expect(three.requests.map(\.variable) == ["id", "id2", "id"])
    }

    @Test func queryVariablesUseTheirOperator() throws {
        let plan = try ReadProbePlan(template: "http://h/books?size=10{&page}", observedValues: ["page": ["1", "2"]], budget: 2)
        #expect(plan.requests.map(\.url) == ["http://h/books?size=10&page=3", "http://h/books?size=10&page=0"])
        let unobserved = try ReadProbePlan(template: "http://h/books/{id}{?page,size}", observedValues: ["id": ["1"]], budget: 100)
        #expect(unobserved.unfilledVariables.isEmpty)
        #expect(unobserved.requests.contains { $0.url == "http://h/books/1?page=0" })
    }

    @Test func pathVariablesWithoutValuesAreReported() throws {
        let plan = try ReadProbePlan(template: "http://h/a/{id}/b/{id2}", observedValues: ["id": ["1"]], budget: 100)
        #expect(plan.unfilledVariables == ["id2"])
        #expect(plan.requests.allSatisfy { $0.variable == "id2" && $0.url.hasPrefix("http://h/a/1/b/") })
        #expect(!plan.requests.isEmpty)
    }

    @Test func inferredTemplatesPlanDirectly() throws {
        let inferred = try #require(TemplateInference.templates(from: (1...6).map { "http://h/books/\($0)" }).first)
        let plan = try ReadProbePlan(inferred, budget: 3)
        #expect(plan.requests.map(\.url) == ["http://h/books/7", "http://h/books/0", "http://h/books/-1"])
        #expect(plan.requests.first?.label == "id: one past the largest id (7)")
    }
}
