import APICheckCrawler
import APICheckHypermedia
import APICheckVerifier
import Testing

/// The variable set of RFC 6570 §3.2 (a superset of §1.2's); `keys` in the RFC's order.
private let rfcValues: [String: URITemplate.Value] = [
    "count": ["one", "two", "three"],
    "dom": ["example", "com"],
    "dub": "me/too",
    "hello": "Hello World!",
    "half": "50%",
    "var": "value",
    "who": "fred",
    "base": "http://example.com/home/",
    "path": "/foo/bar",
    "list": ["red", "green", "blue"],
    "keys": ["semi": ";", "dot": ".", "comma": ","],
    "v": "6",
    "x": "1024",
    "y": "768",
    "empty": "",
    "empty_keys": .associativeArray([]),
    // "undef" is undefined: absent.
]

@Suite struct URITemplateTests {
    // RFC 6570 §1.2, levels 1 to 4, in the order of the RFC.
    @Test(arguments: [
        // Level 1
        ("{var}", "value"),
        ("{hello}", "Hello%20World%21"),
        // Level 2
        ("{+var}", "value"),
        ("{+hello}", "Hello%20World!"),
        ("{+path}/here", "/foo/bar/here"),
        ("here?ref={+path}", "here?ref=/foo/bar"),
        ("X{#var}", "X#value"),
        ("X{#hello}", "X#Hello%20World!"),
        // Level 3
        ("map?{x,y}", "map?1024,768"),
        ("{x,hello,y}", "1024,Hello%20World%21,768"),
        ("{+x,hello,y}", "1024,Hello%20World!,768"),
        ("{+path,x}/here", "/foo/bar,1024/here"),
        ("{#x,hello,y}", "#1024,Hello%20World!,768"),
        ("{#path,x}/here", "#/foo/bar,1024/here"),
        ("X{.var}", "X.value"),
        ("X{.x,y}", "X.1024.768"),
        ("{/var}", "/value"),
        ("{/var,x}/here", "/value/1024/here"),
        ("{;x,y}", ";x=1024;y=768"),
        ("{;x,y,empty}", ";x=1024;y=768;empty"),
        ("{?x,y}", "?x=1024&y=768"),
        ("{?x,y,empty}", "?x=1024&y=768&empty="),
        ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
        ("{&x,y,empty}", "&x=1024&y=768&empty="),
        // Level 4
        ("{var:3}", "val"),
        ("{var:30}", "value"),
        ("{list}", "red,green,blue"),
        ("{list*}", "red,green,blue"),
        ("{keys}", "semi,%3B,dot,.,comma,%2C"),
        ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
        ("{+path:6}/here", "/foo/b/here"),
        ("{+list}", "red,green,blue"),
        ("{+list*}", "red,green,blue"),
        ("{+keys}", "semi,;,dot,.,comma,,"),
        ("{+keys*}", "semi=;,dot=.,comma=,"),
        ("{#path:6}/here", "#/foo/b/here"),
        ("{#list}", "#red,green,blue"),
        ("{#list*}", "#red,green,blue"),
        ("{#keys}", "#semi,;,dot,.,comma,,"),
        ("{#keys*}", "#semi=;,dot=.,comma=,"),
        ("X{.var:3}", "X.val"),
        ("X{.list}", "X.red,green,blue"),
        ("X{.list*}", "X.red.green.blue"),
        ("X{.keys}", "X.semi,%3B,dot,.,comma,%2C"),
        ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
        ("{/var:1,var}", "/v/value"),
        ("{/list}", "/red,green,blue"),
        ("{/list*}", "/red/green/blue"),
        ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
        ("{/keys}", "/semi,%3B,dot,.,comma,%2C"),
        ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
        ("{;hello:5}", ";hello=Hello"),
        ("{;list}", ";list=red,green,blue"),
        ("{;list*}", ";list=red;list=green;list=blue"),
        ("{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"),
        ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
        ("{?var:3}", "?var=val"),
        ("{?list}", "?list=red,green,blue"),
        ("{?list*}", "?list=red&list=green&list=blue"),
        ("{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"),
        ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
        ("{&var:3}", "&var=val"),
        ("{&list}", "&list=red,green,blue"),
        ("{&list*}", "&list=red&list=green&list=blue"),
        ("{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"),
        ("{&keys*}", "&semi=%3B&dot=.&comma=%2C"),
    ])
    func section1_2Examples(template: String, expected: String) throws {
        #expect(try URITemplate(template).expand(rfcValues) == expected)
    }

    // RFC 6570 §3.2.1 to §3.2.9, every table.
    @Test(arguments: [
        // §3.2.1 Variable Expansion
        ("{count}", "one,two,three"),
        ("{count*}", "one,two,three"),
        ("{/count}", "/one,two,three"),
        ("{/count*}", "/one/two/three"),
        ("{;count}", ";count=one,two,three"),
        ("{;count*}", ";count=one;count=two;count=three"),
        ("{?count}", "?count=one,two,three"),
        ("{?count*}", "?count=one&count=two&count=three"),
        ("{&count*}", "&count=one&count=two&count=three"),
        // §3.2.2 Simple String Expansion
        ("{var}", "value"),
        ("{hello}", "Hello%20World%21"),
        ("{half}", "50%25"),
        ("O{empty}X", "OX"),
        ("O{undef}X", "OX"),
        ("{x,y}", "1024,768"),
        ("{x,hello,y}", "1024,Hello%20World%21,768"),
        ("?{x,empty}", "?1024,"),
        ("?{x,undef}", "?1024"),
        ("?{undef,y}", "?768"),
        ("{var:3}", "val"),
        ("{var:30}", "value"),
        ("{list}", "red,green,blue"),
        ("{list*}", "red,green,blue"),
        ("{keys}", "semi,%3B,dot,.,comma,%2C"),
        ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
        // §3.2.3 Reserved Expansion
        ("{+var}", "value"),
        ("{+hello}", "Hello%20World!"),
        ("{+half}", "50%25"),
        ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
        ("{+base}index", "http://example.com/home/index"),
        ("O{+empty}X", "OX"),
        ("O{+undef}X", "OX"),
        ("{+path}/here", "/foo/bar/here"),
        ("here?ref={+path}", "here?ref=/foo/bar"),
        ("up{+path}{var}/here", "up/foo/barvalue/here"),
        ("{+x,hello,y}", "1024,Hello%20World!,768"),
        ("{+path,x}/here", "/foo/bar,1024/here"),
        ("{+path:6}/here", "/foo/b/here"),
        ("{+list}", "red,green,blue"),
        ("{+list*}", "red,green,blue"),
        ("{+keys}", "semi,;,dot,.,comma,,"),
        ("{+keys*}", "semi=;,dot=.,comma=,"),
        // §3.2.4 Fragment Expansion
        ("{#var}", "#value"),
        ("{#hello}", "#Hello%20World!"),
        ("{#half}", "#50%25"),
        ("foo{#empty}", "foo#"),
        ("foo{#undef}", "foo"),
        ("{#x,hello,y}", "#1024,Hello%20World!,768"),
        ("{#path,x}/here", "#/foo/bar,1024/here"),
        ("{#path:6}/here", "#/foo/b/here"),
        ("{#list}", "#red,green,blue"),
        ("{#list*}", "#red,green,blue"),
        ("{#keys}", "#semi,;,dot,.,comma,,"),
        ("{#keys*}", "#semi=;,dot=.,comma=,"),
        // §3.2.5 Label Expansion with Dot-Prefix
        ("{.who}", ".fred"),
        ("{.who,who}", ".fred.fred"),
        ("{.half,who}", ".50%25.fred"),
        ("www{.dom*}", "www.example.com"),
        ("X{.var}", "X.value"),
        ("X{.empty}", "X."),
        ("X{.undef}", "X"),
        ("X{.var:3}", "X.val"),
        ("X{.list}", "X.red,green,blue"),
        ("X{.list*}", "X.red.green.blue"),
        ("X{.keys}", "X.semi,%3B,dot,.,comma,%2C"),
        ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
        ("X{.empty_keys}", "X"),
        ("X{.empty_keys*}", "X"),
        // §3.2.6 Path Segment Expansion
        ("{/who}", "/fred"),
        ("{/who,who}", "/fred/fred"),
        ("{/half,who}", "/50%25/fred"),
        ("{/who,dub}", "/fred/me%2Ftoo"),
        ("{/var}", "/value"),
        ("{/var,empty}", "/value/"),
        ("{/var,undef}", "/value"),
        ("{/var,x}/here", "/value/1024/here"),
        ("{/var:1,var}", "/v/value"),
        ("{/list}", "/red,green,blue"),
        ("{/list*}", "/red/green/blue"),
        ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
        ("{/keys}", "/semi,%3B,dot,.,comma,%2C"),
        ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
        // §3.2.7 Path-Style Parameter Expansion
        ("{;who}", ";who=fred"),
        ("{;half}", ";half=50%25"),
        ("{;empty}", ";empty"),
        ("{;v,empty,who}", ";v=6;empty;who=fred"),
        ("{;v,bar,who}", ";v=6;who=fred"),
        ("{;x,y}", ";x=1024;y=768"),
        ("{;x,y,empty}", ";x=1024;y=768;empty"),
        ("{;x,y,undef}", ";x=1024;y=768"),
        ("{;hello:5}", ";hello=Hello"),
        ("{;list}", ";list=red,green,blue"),
        ("{;list*}", ";list=red;list=green;list=blue"),
        ("{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"),
        ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
        // §3.2.8 Form-Style Query Expansion
        ("{?who}", "?who=fred"),
        ("{?half}", "?half=50%25"),
        ("{?x,y}", "?x=1024&y=768"),
        ("{?x,y,empty}", "?x=1024&y=768&empty="),
        ("{?x,y,undef}", "?x=1024&y=768"),
        ("{?var:3}", "?var=val"),
        ("{?list}", "?list=red,green,blue"),
        ("{?list*}", "?list=red&list=green&list=blue"),
        ("{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"),
        ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
        // §3.2.9 Form-Style Query Continuation
        ("{&who}", "&who=fred"),
        ("{&half}", "&half=50%25"),
        ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
        ("{&x,y,empty}", "&x=1024&y=768&empty="),
        ("{&x,y,undef}", "&x=1024&y=768"),
        ("{&var:3}", "&var=val"),
        ("{&list}", "&list=red,green,blue"),
        ("{&list*}", "&list=red&list=green&list=blue"),
        ("{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"),
        ("{&keys*}", "&semi=%3B&dot=.&comma=%2C"),
    ])
    func section3Examples(template: String, expected: String) throws {
        #expect(try URITemplate(template).expand(rfcValues) == expected)
    }

    /// RFC 6570 erratum 6937 (verified): literals are `%x26-3B`, so an apostrophe is one.
    @Test func anApostropheIsALiteral() throws {
        #expect(try URITemplate("'{var}'").expand(["var": "value"]) == "'value'")
        #expect(try URITemplate("/search?q='{term}'").expand(["term": "a b"]) == "/search?q='a%20b'")
    }

    @Test func listsVariablesWithModifiers() throws {
        let template = try URITemplate("/movies{/id}{?page,size:2}{&tags*}")
        #expect(template.variableNames == ["id", "page", "size", "tags"])
        let variables = template.variables
        #expect(variables.map(\.name) == ["id", "page", "size", "tags"])
        #expect(variables.map(\.explode) == [false, false, false, true])
        #expect(variables.map(\.prefix) == [nil, nil, 2, nil])
        #expect(variables.map(\.operator) == [.pathSegment, .query, .query, .queryContinuation])
        #expect(variables.map(\.offset) == [9, 14, 19, 28])
        #expect(template.isTemplated)
        #expect(!template.hasOnlyQueryVariables)
    }

    @Test func queryOnlyTemplatesExpandEmpty() throws {
        let template = try URITemplate("http://localhost:3000/movies{?page,size}")
        #expect(template.hasOnlyQueryVariables)
        #expect(template.missingVariables(for: [:]).isEmpty)
        #expect(try template.expand([:]) == "http://localhost:3000/movies")
        #expect(try template.expand(["size": "10"]) == "http://localhost:3000/movies?size=10")
    }

    @Test func missingVariablesAreThoseOutsideQueries() throws {
        let template = try URITemplate("/users/{user}/movies{/id}{?page}{#frag}")
        #expect(template.missingVariables(for: [:]) == ["user", "id", "frag"])
        #expect(template.missingVariables(for: ["user": "1", "id": []]) == ["id", "frag"])
        #expect(template.missingVariables(for: ["user": "1", "id": "2", "frag": ""]).isEmpty)
        // A name used twice is reported once.
        #expect(try URITemplate("{a}/{a}{?a}").missingVariables(for: [:]) == ["a"])
    }

    @Test func plainURIsAreNotTemplated() throws {
        let template = try URITemplate("http://localhost:3000/movies/pLDhp")
        #expect(!template.isTemplated)
        #expect(template.hasOnlyQueryVariables)
        #expect(try template.expand([:]) == "http://localhost:3000/movies/pLDhp")
    }

    @Test func literalsArePercentEncodedWhenNotASCII() throws {
        #expect(try URITemplate("/caf\u{E9}/{x}").expand(["x": "\u{E9}"]) == "/caf%C3%A9/%C3%A9")
        #expect(try URITemplate("/a%2Fb{+x}").expand(["x": "%2F%zz"]) == "/a%2Fb%2F%25zz")
    }

    @Test func prefixCountsCharactersNotBytes() throws {
        #expect(try URITemplate("{x:2}").expand(["x": "\u{E9}t\u{E9}"]) == "%C3%A9t")
    }

    @Test(arguments: [
        ("/movies/{id", 8, "never closed"),
        ("/movies/id}", 10, "'}' closes no expression"),
        ("/movies/{}", 8, "names no variable"),
        ("{=x}", 1, "reserved for future"),
        ("{|x}", 1, "reserved for future"),
        ("{x y}", 2, "unexpected ' '"),
        ("{.x.}", 3, "may not end with '.'"),
        ("{x..y}", 3, "'.' may only separate"),
        ("{-x}", 1, "expected a variable name"),
        ("{x:0}", 3, "not start with 0"),
        ("{x:10000}", 7, "at most 9999"),
        ("{x:}", 3, "prefix length"),
        ("{x*y}", 3, "unexpected 'y'"),
        ("/a b/{x}", 2, "write it percent-encoded as %20"),
        ("/a<b", 2, "'<'"),
        ("/50%/{x}", 3, "two hexadecimal digits"),
        ("{x%2}", 2, "two hexadecimal digits"),
        ("{a{b}}", 2, "unexpected '{'"),
        ("/caf\u{E9}{x,", 5, "never closed"),  // offsets count scalars, not bytes
    ])
    func syntaxErrorsNameTheOffset(template: String, offset: Int, message: String) {
        let error = #expect(throws: URITemplateError.self) { try URITemplate(template) }
        #expect(error?.offset == offset, "\(template): \(error.map(String.init(describing:)) ?? "")")
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        #expect(error?.isSyntaxError == true)
        #expect(error?.description.hasPrefix("offset \(offset): ") == true)
    }

    @Test func lengthIsBounded() throws {
        let long = String(repeating: "a", count: URITemplate.defaultMaximumLength + 1)
        #expect(throws: URITemplateError.self) { try URITemplate(long) }
        #expect(throws: Never.self) { try URITemplate(long, maximumLength: long.utf8.count) }

        let template = try URITemplate("{x*}{y}")
        let many = URITemplate.Value.list(Array(repeating: "abc", count: 100_000))
        let error = #expect(throws: URITemplateError.self) { try template.expand(["x": many]) }
        #expect(error?.isSyntaxError == false)
        #expect(throws: URITemplateError.self) { try template.expand(["y": .string(String(repeating: "é", count: 40_000))]) }
        #expect(try template.expand(["y": "ok"], maximumLength: 2) == "ok")
    }

    @Test func prefixOnCompositeValuesIsAnExpansionError() throws {
        let error = #expect(throws: URITemplateError.self) { try URITemplate("{list:2}").expand(["list": ["a", "b"]]) }
        #expect(error?.offset == nil)
        #expect(error?.isSyntaxError == false)
    }

    @Test func looksTemplated() {
        #expect(URITemplate.looksTemplated("/movies/{id}"))
        #expect(!URITemplate.looksTemplated("/movies/1?x=%7B"))
        #expect(!URITemplate.looksTemplated("/movies/1}"))  // not a template: an invalid URI
    }
}
