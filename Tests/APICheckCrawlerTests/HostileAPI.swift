import Foundation

/// A stub folder that behaves like a hostile or broken API, written to a temporary directory.
///
/// | request | answer |
/// |---|---|
/// | `GET /` | HAL links to everything below, plus an href that is not a URL (`http://[::1`), an invalid template, and a link to another host |
/// | `GET /loop/a`, `/loop/b` | 302 to each other |
/// | `GET /away` | 302 to another host |
/// | `GET /page/{n}` | a template: `self`, and `next` to `/page/{n}1`, a new page every time |
/// | `GET /big` | 4 KiB of HAL, more than the test's body limit |
/// | `GET /not-json` | `application/json`, a body that is not JSON |
/// | `GET /latin1` | `text/plain; charset=utf-8`, bytes that are not UTF-8 |
/// | `GET /latin1.json` | `application/json` with a string that is not UTF-8 |
/// | `GET /untyped` | a body without `Content-Type` |
struct HostileAPI {
    let folder: URL

    /// Writes the folder; remove it with ``remove()``.
    static func make() throws -> HostileAPI {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("templates"), withIntermediateDirectories: true)
        let bigLinks = (0..<128).map { "\"r\($0)\": {\"href\": \"/never/\($0)\"}" }.joined(separator: ", ")
        let stubs = """
            {"stubs": [
              {"name": "root", "request": {"method": "GET", "path": "/"},
               "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "body": {"_links": {
                 "self": {"href": "/"},
                 "loop": {"href": "/loop/a"},
                 "away": {"href": "/away"},
                 "pages": {"href": "/page/1"},
                 "big": {"href": "/big"},
                 "not-json": {"href": "/not-json"},
                 "latin1": {"href": "/latin1"},
                 "latin1-json": {"href": "/latin1.json"},
                 "untyped": {"href": "/untyped"},
                 "elsewhere": {"href": "http://other.example.test/x"},
                 "broken": {"href": "http://[::1"},
                 "search": {"href": "/search{?q", "templated": true}
               }}}},
              {"name": "loop a", "request": {"method": "GET", "path": "/loop/a"},
               "response": {"status": 302, "headers": {"Location": "/loop/b"}}},
              {"name": "loop b", "request": {"method": "GET", "path": "/loop/b"},
               "response": {"status": 302, "headers": {"Location": "/loop/a"}}},
              {"name": "away", "request": {"method": "GET", "path": "/away"},
               "response": {"status": 302, "headers": {"Location": "http://other.example.test/"}}},
              {"name": "page", "request": {"method": "GET", "path": "/page/{n}"},
               "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "template": "templates/page.json.mustache"}},
              {"name": "big", "request": {"method": "GET", "path": "/big"},
               "response": {"status": 200, "headers": {"Content-Type": "application/hal+json"}, "body": {"_links": {\(bigLinks)}}}},
              {"name": "not json", "request": {"method": "GET", "path": "/not-json"},
               "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "bodyText": "<html>not JSON</html>"}},
              {"name": "latin1", "request": {"method": "GET", "path": "/latin1"},
               "response": {"status": 200, "headers": {"Content-Type": "text/plain; charset=utf-8"}, "bodyFile": "latin1.txt"}},
              {"name": "latin1 json", "request": {"method": "GET", "path": "/latin1.json"},
               "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "bodyFile": "latin1.json.bin"}},
              {"name": "untyped", "request": {"method": "GET", "path": "/untyped"},
               "response": {"status": 200, "bodyText": "{\\"_links\\": {\\"self\\": {\\"href\\": \\"/untyped\\"}}}"}}
            ]}
            """
        try Data(stubs.utf8).write(to: folder.appendingPathComponent("api.json"))
        let page = #"{"_links": {"self": {"href": "/page/{{request.pathParams.n}}"}, "next": {"href": "/page/{{request.pathParams.n}}1"}}}"#
        try Data(page.utf8).write(to: folder.appendingPathComponent("templates/page.json.mustache"))
        // "café" in Latin-1: 0xE9 starts a UTF-8 sequence that never continues.
        try Data([0x63, 0x61, 0x66, 0xE9, 0x0A]).write(to: folder.appendingPathComponent("latin1.txt"))
        try Data(Array(#"{"name": "caf"#.utf8) + [0xE9] + Array(#""}"#.utf8)).write(to: folder.appendingPathComponent("latin1.json.bin"))
        return HostileAPI(folder: folder)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
