import APICheckFindings
import APICheckReportFormats
import APICheckSpool
import Testing

/// A defect's title is true of every occurrence and names no origin (trials on real APIs: a DRF
/// HAL API's "rel 'books' is a bare string href" stood for 75 findings over 8 rels).
@Suite struct DefectTitleTests {
    private static let origin = "http://127.0.0.1:8702"

    private func shape(_ message: String, format: String = "HAL", pointer: String, url: String = "\(origin)/authors/") -> Finding {
        Finding(rule: .formatShape, url: url, sourcePointer: pointer, format: format, relPath: ["authors"], message: message)
    }

    @Test func rulesWrittenOneWayAreOneDefectWhoseTitleNamesEveryRel() {
        let rels = ["books", "authors", "next", "previous", "publisher", "reviews", "editions", "series"]
        let findings = rels.map { rel in
            shape("rel '\(rel)' is a bare string href (as drf-hal-json writes): HAL link objects are {\"href\": …}", pointer: "/_links/\(rel)")
        }
        let defects = Defect.cluster(findings)
        #expect(defects.count == 1)
        #expect(defects.first?.title == "rels 'books', 'authors', 'next' and 5 more are bare string hrefs (as drf-hal-json writes): HAL link objects are {\"href\": …}")
        // The grouping did not change, so neither did the id baselines know it by.
        #expect(defects.first?.id == "c5a735ee860b524f")

        let nulls = Defect.cluster(["previous", "next"].map { shape("rel '\($0)' is a null link: leave the rel out instead", pointer: "/_links/\($0)") })
        #expect(nulls.map(\.title) == ["rels 'previous' and 'next' are null links: leave the rels out instead"])
        #expect(nulls.first?.id == "522442fbe3664578")

        // One occurrence, or several of one rel: the title is the message.
        let one = Defect.cluster([shape("rel 'next' is a null link: leave the rel out instead", pointer: "/_links/next")])
        #expect(one.first?.title == "rel 'next' is a null link: leave the rel out instead")
    }

    @Test func aMissingTypeIsNotAMissingID() {
        let defects = Defect.cluster([
            shape("the JSON:API resource object has no string 'id'", format: "JSON:API", pointer: "/data/0"),
            shape("the JSON:API resource object has no string 'type'", format: "JSON:API", pointer: "/data/1"),
            shape("the JSON:API resource object has no string 'id'", format: "JSON:API", pointer: "/data/2"),
        ])
        #expect(defects.map(\.title).sorted() == ["the JSON:API resource object has no string 'id'", "the JSON:API resource object has no string 'type'"])
        #expect(defects.map(\.count).sorted() == [1, 2])
        // Fields of link objects, too: a 'title' that is not a string is not a 'type' that is not.
        let fields = Defect.cluster([
            shape("'title' must be a string, found a number", pointer: "/_links/a/title"),
            shape("'type' must be a string, found a number", pointer: "/_links/b/type"),
        ])
        #expect(fields.count == 2)
    }

    @Test func whatDiffersBetweenOccurrencesIsListed() {
        func notSelf(_ named: Int, fetched: Int) -> Finding {
            Finding(
                rule: .selfConsistent, url: "\(Self.origin)/products/p-\(fetched)", rel: "self", sourcePointer: "/_links/self", relPath: ["products[\(fetched)]"],
                referrer: "\(Self.origin)/products/p-\(fetched)",
                message: "the self link names \(Self.origin)/products/p-\(named), not the resource fetched (\(Self.origin)/products/p-\(fetched))")
        }
        let defects = Defect.cluster([notSelf(1002, fetched: 1005), notSelf(1002, fetched: 1006)])
        #expect(defects.map(\.title) == ["the self link names /products/p-1002, not the resource fetched (/products/p-1005 or /products/p-1006)"])

        func noType(_ bytes: Int) -> Finding {
            Finding(
                rule: .contentTypePresent, url: "\(Self.origin)/help/\(bytes)", rel: "help", relPath: ["help"], expected: "a Content-Type header", actual: "none",
                message: "a 200 with a \(bytes)-byte body has no Content-Type")
        }
        // The size moves with the absolute URLs in a body (the port's digits): not in the title.
        #expect(Defect.cluster([noType(133), noType(135)]).map(\.title) == ["a 200 with a body has no Content-Type (expected a Content-Type header, saw none): send a Content-Type"])
    }

    @Test func aTargetReachedByTwoRelsIsOneDefectNamingBoth() {
        func gone(_ rel: String, from referrer: String, path: RelPath) -> Finding {
            Finding(
                rule: .linkResolves, url: "\(Self.origin)/authors/2/", rel: rel, sourcePointer: "/\(rel)", relPath: path, referrer: "\(Self.origin)\(referrer)",
                expected: "a 2xx response", actual: "410", message: "the link answers 410")
        }
        let defects = Defect.cluster([
            gone("author", from: "/books/1/", path: ["books", "results[0].author"]),
            gone("self", from: "/authors/", path: ["authors", "results[1].self"]),
            Finding(
                rule: .linkResolves, url: "\(Self.origin)/authors/7/", rel: "author", relPath: ["books", "results[3].author"], referrer: "\(Self.origin)/books/3/",
                expected: "a 2xx response", actual: "410", message: "the link answers 410"),
        ])
        #expect(defects.count == 1)
        #expect(defects.first?.title == "GET author and self links answer 410: /authors/{id}/ must answer 2xx")
        #expect(defects.first?.places == ["root → books → results[*].author", "root → authors → results[*].self"])
    }

    @Test func targetShapesKeepWordsAndTakeOutIDs() {
        func shape(_ url: String) -> String {
            let finding = Finding(rule: .linkResolves, url: url, rel: "x", expected: "a 2xx response", actual: "404", message: "the link answers 404")
            return Defect.cluster([finding]).first?.title ?? ""
        }
        #expect(shape("https://h/poster/10CFL") == "GET x links answer 404: /poster/{id} must answer 2xx")
        #expect(shape("https://h/poster/pLDhp?size=2#top") == "GET x links answer 404: /poster/{id}?size=… must answer 2xx")
        #expect(shape("https://h/articles?page%5Boffset%5D=2&page%5Blimit%5D=1") == "GET x links answer 404: /articles?page[offset]=…&page[limit]=… must answer 2xx")
        #expect(shape("https://h/api/v2/userProfiles/DdrvJ/items/c-7f3a") == "GET x links answer 404: /api/v2/userProfiles/{id}/items/{id} must answer 2xx")
        #expect(shape("https://h/categories/kitchen") == "GET x links answer 404: /categories/kitchen must answer 2xx")
        #expect(shape("https://h") == "GET x links answer 404: / must answer 2xx")
    }

    /// Titles are about the API's shape: a JUnit test named after one keeps its name between
    /// 127.0.0.1:8702 and any other host.
    @Test func noRuleTitlesAnOrigin() {
        let origin = Self.origin
        let findings: [Finding] = [
            Finding(
                rule: .methodValid, method: "DELETE", url: "\(origin)/orders/1", rel: "cancel", sourcePointer: "/actions/0", referrer: "\(origin)/orders/1",
                expected: "Allow to list DELETE", actual: "Allow: GET, OPTIONS",
                message: "the server does not allow DELETE on \(origin)/orders/1 (Allow: GET, OPTIONS)"),
            Finding(
                rule: .methodValid, method: "DELETE", url: "\(origin)/orders/2", rel: "remove", referrer: "\(origin)/orders/2",
                expected: "a 2xx response", actual: "405", message: "DELETE \(origin)/orders/2 answers 405"),
            Finding(
                rule: .methodValid, method: "PUT", url: "\(origin)/orders/3", rel: "update", referrer: "\(origin)/orders/3",
                expected: "a response", actual: "connection refused", message: "PUT \(origin)/orders/3 failed: connection refused"),
            Finding(
                rule: .methodValid, method: "DELETE", url: "\(origin)/orders/44", rel: "cancel44", referrer: "\(origin)/orders/44",
                expected: "a stub answering DELETE /orders/44", actual: "none", message: "no stub answers DELETE \(origin)/orders/44"),
            Finding(
                rule: .templateValid, url: "\(origin)/events{?page", rel: "public_events", referrer: "\(origin)/", actual: "\(origin)/events{?page",
                message: "the templated href is not valid RFC 6570: offset 28: the expression opened here is never closed with '}'"),
            Finding(
                rule: .linkResolves, url: "\(origin)/hub", rel: "hub", referrer: "\(origin)/", expected: "a 2xx response", actual: "404",
                message: "the link answers 404"),
            Finding(
                rule: .linkResolves, url: "\(origin)/down", rel: "down", referrer: "\(origin)/", expected: "a 2xx response",
                actual: "connection failed: nothing listens on 127.0.0.1:8702; is the server running",
                message: "the link does not resolve: connection failed: nothing listens on 127.0.0.1:8702; is the server running"),
            Finding(
                rule: .duplicateRel, url: "\(origin)/movies/pLDhp", rel: "self", referrer: "\(origin)/movies/pLDhp",
                actual: "\(origin)/movies/pLDhp, \(origin)/movies/pLDhp (vnd.x+json)",
                message: "the rel self appears 2 times with different targets or attributes: \(origin)/movies/pLDhp, \(origin)/movies/pLDhp (vnd.x+json)"),
            Finding(
                rule: .driftStatus, url: "\(origin)/movies/3", rel: "movie", referrer: "stubs/movies.json:1:1",
                message: "GET \(origin)/movies/3: the stub answers 200, the live API 404 (client error)"),
        ]
        for finding in findings {
            let title = Defect.cluster([finding]).first?.title ?? ""
            #expect(!title.contains("127.0.0.1") && !title.contains("8702"), "\(finding.rule): \(title)")
        }
        let titles = findings.map { Defect.cluster([$0]).first?.title ?? "" }
        #expect(titles[0] == "DELETE cancel links are not allowed by their target (Allow: GET, OPTIONS): stop advertising the link there, or allow DELETE")
        #expect(titles[1] == "DELETE remove links answer 405: the target must accept DELETE with 2xx")
        #expect(titles[3] == "no stub answers DELETE /orders/44 (the cancel44 link): add one, or fix the link")
        #expect(titles[4] == "the templated href '/events{?page' is not valid RFC 6570: the expression opened is never closed with '}'")
        #expect(titles[5] == "GET hub links answer 404: /hub must answer 2xx")
        #expect(titles[6] == "GET down links fail (connection failed: nothing listens on the host; is the server running): the target must answer 2xx")
        #expect(titles[8] == "GET /movies/3: the stub answers 200, the live API 404 (client error)")
        // Another host in a title is the API's data, not its origin: it stays.
        let profile = Finding(
            rule: .typeMatches, url: "\(origin)/movies/3", rel: "movie", declaredType: "application/x+json; profile=\"https://schemas.example.com/movie\"",
            servedType: "application/x+json", referrer: "\(origin)/", expected: "application/x+json", actual: "application/x+json",
            message: "declared application/x+json; profile=\"https://schemas.example.com/movie\", served application/x+json: the profile differs")
        #expect(Defect.cluster([profile]).first?.title.contains("https://schemas.example.com/movie") == true)
    }

    @Test func severalStatusesOfOneRelAreListed() {
        func sent(_ order: Int, _ status: Int) -> Finding {
            Finding(
                rule: .methodValid, method: "DELETE", url: "\(Self.origin)/orders/\(order)", rel: "cancel", referrer: "\(Self.origin)/orders/\(order)",
                expected: "a 2xx response", actual: "\(status)", message: "DELETE \(Self.origin)/orders/\(order) answers \(status)")
        }
        let defects = Defect.cluster([sent(1, 404), sent(2, 500), sent(3, 404)])
        #expect(defects.map(\.title) == ["DELETE cancel links answer 404 or 500: the target must accept DELETE with 2xx"])
    }
}
