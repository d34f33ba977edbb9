import APICheckFindings
import APICheckReportFormats
import APICheckSpool
import Testing

@Suite struct DefectTests {
    private func typeSyntax(_ type: String, at index: Int, rel: String = "self") -> Finding {
        Finding(
            rule: .typeSyntax, url: "https://api.example.com/movies/\(index)", rel: rel, declaredType: type, sourcePointer: "/_links/0",
            relPath: ["movies[\(index)]", rel], referrer: "https://api.example.com/movies", expected: "application/" + type, actual: type,
            message: "the declared type '\(type)' lacks a top-level type: write 'application/\(type)'")
    }

    @Test func anInvalidTypeIsOneDefectWhereverItIsDeclared() {
        let findings = (0..<4).map { typeSyntax("vnd.x+json", at: $0) } + [typeSyntax("vnd.x+json", at: 9, rel: "rent")] + [typeSyntax("vnd.y+json", at: 1)]
        let defects = Defect.cluster(findings)
        #expect(defects.map(\.count) == [5, 1])
        #expect(defects[0].title == "the declared type 'vnd.x+json' lacks a top-level type: write 'application/vnd.x+json'")
        #expect(defects[0].places == ["root → movies[*] → self", "root → movies[*] → rent"])
        #expect(Set(findings.map { Defect.id(of: $0) }).count == 2)
    }

    @Test func brokenLinksAreOneDefectPerTargetMethodAndStatus() {
        func broken(_ url: String, rel: String, status: String, path: [String]) -> Finding {
            Finding(rule: .linkResolves, url: url, rel: rel, relPath: RelPath(path), expected: "a 2xx response", actual: status, message: "the link answers \(status)")
        }
        let defects = Defect.cluster([
            broken("https://h/poster/1", rel: "poster", status: "500", path: ["library", "movies[1].poster"]),
            broken("https://h/poster/1", rel: "poster", status: "500", path: ["library", "movies[1].self", "poster"]),
            broken("https://h/poster/2", rel: "poster", status: "404", path: ["library", "movies[2].poster"]),
            broken("https://h/next", rel: "next", status: "404", path: ["page", "next"]),
        ])
        #expect(defects.count == 3)
        #expect(defects.first?.title == "GET poster links answer 500: /poster/{id} must answer 2xx")
        #expect(defects.first?.count == 2)
        #expect(defects.first?.reproduction == "curl -i 'https://h/poster/1'")
    }

    @Test func idsAreStableAndIgnoreWhereAndWhen() {
        let first = typeSyntax("vnd.x+json", at: 1)
        var later = typeSyntax("vnd.x+json", at: 7)
        later.severity = .error
        #expect(Defect.id(of: first) == Defect.id(of: later))
        #expect(Defect.id(of: first).count == 16)
        #expect(Defect.id(of: first) != Defect.id(of: typeSyntax("vnd.z+json", at: 1)))
    }

    @Test func worstFirstThenMostOccurrences() {
        let warnings = (0..<3).map { typeSyntax("vnd.x+json", at: $0) }
        let error = Finding(rule: .contentTypePresent, url: "https://h/help", relPath: ["help"], message: "a 200 with a 12-byte body has no Content-Type")
        let defects = Defect.cluster(warnings + [error])
        #expect(defects.map(\.rule) == [.contentTypePresent, .typeSyntax])
        #expect(defects.first?.title == "a 200 with a body has no Content-Type: send a Content-Type")
    }

    @Test func placeScopedRulesSplitByShape() {
        func notSelf(_ path: [String]) -> Finding {
            Finding(rule: .selfConsistent, url: "https://h/x", rel: "self", relPath: RelPath(path), message: "the self link names https://h/y, not the resource fetched (https://h/x)")
        }
        #expect(Defect.cluster([notSelf(["products[1]"]), notSelf(["products[2]"]), notSelf(["carts[1]"])]).map(\.count) == [2, 1])
    }

    @Test func reproductionsNameCredentialsNeverTheirValues() {
        #expect(Reproduction.curl(method: "PUT", url: "https://h/cart/1?x='y'", headers: ["Authorization", "X-Api-Key"])
            == #"curl -i -X 'PUT' -H "Authorization: $AUTHORIZATION" -H "X-Api-Key: $X_API_KEY" 'https://h/cart/1?x='\''y'\'''"#)
        #expect(Reproduction.curl(method: "HEAD", url: "https://h/") == "curl -I 'https://h/'")
    }

    @Test func shapesStripIndicesButKeepNames() {
        #expect(RelPath.shape(["library", "movies[9].self", "poster[12]", "a[b]"]) == "root → library → movies[*].self → poster[*] → a[b]")
    }
}
