import APICheckProbe
import Testing

@Suite struct TemplateInferenceTests {
    private func grouped(_ urls: [String], _ group: String = "library → books[] → self") -> [(url: String, group: String)] {
        urls.map { (url: $0, group: group) }
    }

    @Test func integerIdsBecomeOneTemplateAndRouteWordsStayOut() {
        let urls = (1...6).map { "http://h/books/\($0)" } + ["http://h/books/search"]
        for templates in [TemplateInference.templates(from: grouped(urls)), TemplateInference.templates(from: urls)] {
            #expect(templates.count == 1)
            let books = templates.first
            #expect(books?.template == "http://h/books/{id}")
            #expect(books?.variables == ["id"])
            #expect(books?.observedValues["id"] == ["1", "2", "3", "4", "5", "6"])
            #expect(books?.exampleURL == "http://h/books/1")
        }
    }

    @Test func twoVaryingSegmentsGetTwoVariables() {
        let urls = ["http://h/authors/3/books/9", "http://h/authors/4/books/10", "http://h/authors/3/books/11"]
        let templates = TemplateInference.templates(from: grouped(urls))
        #expect(templates.map(\.template) == ["http://h/authors/{id}/books/{id2}"])
        #expect(templates.first?.observedValues == ["id": ["3", "4"], "id2": ["9", "10", "11"]])
    }

    @Test func aConstantIdStaysLiteral() {
        let urls = ["http://h/authors/3/books/9", "http://h/authors/3/books/10"]
        #expect(TemplateInference.templates(from: urls).map(\.template) == ["http://h/authors/3/books/{id}"])
    }

    @Test func uuidsAreIds() {
        let ids = ["0b7c2f1e-3a4d-4c5b-9e8f-112233445566", "9a8b7c6d-5e4f-4a3b-8c2d-1e0f99887766"]
        let templates = TemplateInference.templates(from: ids.map { "https://api.example/movies/\($0)/cast" })
        #expect(templates.map(\.template) == ["https://api.example/movies/{id}/cast"])
        #expect(templates.first?.observedValues["id"] == ids)
    }

    @Test func idsOfDifferentShapesDoNotMix() {
        let urls = ["http://h/things/1", "http://h/things/2", "http://h/things/0b7c2f1e-3a4d-4c5b-9e8f-112233445566"]
        let templates = TemplateInference.templates(from: grouped(urls))
        #expect(templates.map(\.template) == ["http://h/things/{id}"])
        #expect(templates.first?.observedValues["id"] == ["1", "2"])
    }

    @Test func nothingIsInferredFromASingleURL() {
        #expect(TemplateInference.templates(from: grouped(["http://h/books/1"])).isEmpty)
        #expect(TemplateInference.templates(from: grouped(["http://h/books/1", "http://h/books/1#top"])).isEmpty)
    }

    @Test func minimumInstancesIsHonoured() {
        let urls = grouped(["http://h/books/1", "http://h/books/2"])
        #expect(TemplateInference.templates(from: urls, minimumInstances: 3).isEmpty)
        #expect(TemplateInference.templates(from: urls, minimumInstances: 2).count == 1)
    }

    @Test func differentGroupsStayApart() {
        let urls = [
            (url: "http://h/items/1", group: "library → books[] → self"),
            (url: "http://h/items/2", group: "library → authors[] → self"),
        ]
        #expect(TemplateInference.templates(from: urls).isEmpty)
        let more = urls + [
            (url: "http://h/items/3", group: "library → books[] → self"),
            (url: "http://h/items/4", group: "library → authors[] → self"),
        ]
        let templates = TemplateInference.templates(from: more)
        #expect(templates.map(\.group) == ["library → books[] → self", "library → authors[] → self"])
        #expect(templates.map { $0.observedValues["id"] ?? [] } == [["1", "3"], ["2", "4"]])
    }

    @Test func differentRoutesStayApartWithoutGroups() {
        let urls = ["http://h/books/1", "http://h/authors/1", "http://h/books/2", "http://other/books/3"]
        let templates = TemplateInference.templates(from: urls)
        #expect(templates.map(\.template) == ["http://h/books/{id}"])
    }

    @Test func wordsAreIdsOnlyUnderARelPathWhereEachDiffers() {
        let urls = ["http://h/authors/tolkien", "http://h/authors/pratchett", "http://h/authors/le-guin"]
        #expect(TemplateInference.templates(from: urls).isEmpty)
        let templates = TemplateInference.templates(from: grouped(urls, "library → authors[] → self"))
        #expect(templates.map(\.template) == ["http://h/authors/{id}"])
        #expect(templates.first?.observedValues["id"] == ["tolkien", "pratchett", "le-guin"])
    }

    @Test func varyingQueryValuesBecomeQueryVariables() {
        let urls = ["http://h/books?size=10&page=1", "http://h/books?size=10&page=2", "http://h/books?size=10&page=3"]
        let templates = TemplateInference.templates(from: urls)
        #expect(templates.map(\.template) == ["http://h/books?size=10{&page}"])
        #expect(templates.first?.observedValues["page"] == ["1", "2", "3"])
        let plain = TemplateInference.templates(from: ["http://h/books?page=1", "http://h/books?page=2"])
        #expect(plain.map(\.template) == ["http://h/books{?page}"])
    }

    @Test func theCapsBoundTheWork() {
        let urls = (1...50).map { "http://h/books/\($0)" }
        let capped = TemplateInference.templates(from: grouped(urls), maximumURLsPerGroup: 10)
        #expect(capped.first?.observedValues["id"]?.count == 10)
        let many = (1...5).flatMap { route in ["http://h/r\(route)x/1", "http://h/r\(route)x/2"] }
        #expect(TemplateInference.templates(from: grouped(many), maximumTemplates: 3).count == 3)
    }
}
