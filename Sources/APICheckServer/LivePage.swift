import APICheckHTML

/// The stub server's page for people, at `/__apicheck/` in a browser: what is loaded (stubs by
/// file with their match rules, runtime stubs), scenarios with a selector, the journal as it grows
/// with each request's stub or near-miss report, the last reload and its errors. The page holds no
/// data: its script reads the admin API's JSON endpoints (the same ones scripts use), polling once
/// a second, and writes every value with `textContent`.
///
/// It is one fixed document, rendered once. Its Content-Security-Policy (sent as a header, with
/// `frame-ancestors 'none'`) allows its own script and style by hash and fetches to its own origin
/// only. With `--admin-token` the page asks for the token once and keeps it in the tab's
/// `sessionStorage`, sending it as `Authorization: Bearer` on each call; it is never put in a URL
/// or a cookie.
enum LivePage {
    static let document: HTMLDocument = {
        func button(_ id: StaticString, _ label: String) -> HTMLNode {
            .element(.button, [.id(HTMLToken(id)), .tokens(.type, [HTMLToken("button")])], [.text(label)])
        }
        var page = HTMLDocument(
            language: "en", title: "apicheck serve", styles: [LivePageAssets.style], scripts: [LivePageAssets.script],
            body: [
                .element(.header, [], [
                    .element(.h1, [], [.text("apicheck serve "), .element(.span, [.id(HTMLToken("origin"))])]),
                    .element(.p, [.id(HTMLToken("health")), .class(HTMLToken("hint"))], [.text("Connecting…")]),
                    .element(.div, [.class(HTMLToken("controls"))], [
                        button("reload-button", "Reload files"), button("reset-button", "Reset to files"), button("clear-journal-button", "Clear journal"),
                        .element(.span, [.id(HTMLToken("action-status")), .tokens(.role, [HTMLToken("status")])]),
                    ]),
                    .element(.div, [.id(HTMLToken("token-form")), .flag(.hidden)], [
                        .element(.label, [.tokens(.for, [HTMLToken("token")])], [.text("This server has an admin token. Token: ")]),
                        .element(.input, [.id(HTMLToken("token")), .tokens(.type, [HTMLToken("password")]), .text(.ariaLabel, "Admin token")]),
                        button("use-token", "Use it"),
                    ]),
                ]),
                .element(.main, [], [
                    .element(.section, [.id(HTMLToken("reload-section"))], [
                        .element(.h2, [], [.text("Last reload")]),
                        .element(.div, [.id(HTMLToken("reload"))]),
                    ]),
                    .element(.section, [.id(HTMLToken("journal-section"))], [
                        .element(.h2, [], [.text("Requests "), .element(.small, [.id(HTMLToken("journal-count"))])]),
                        .element(.table, [.id(HTMLToken("journal"))], [
                            .element(.thead, [], [.element(.tr, [], ["time", "method", "path", "status", "answered by"].map { .element(.th, [], [.text($0)]) })]),
                            .element(.tbody, [], []),
                        ]),
                    ]),
                    .element(.section, [.id(HTMLToken("scenarios-section"))], [
                        .element(.h2, [], [.text("Scenarios")]),
                        .element(.div, [.id(HTMLToken("scenarios"))]),
                    ]),
                    .element(.section, [.id(HTMLToken("stubs-section"))], [
                        .element(.h2, [], [.text("Stubs "), .element(.small, [.id(HTMLToken("stub-count"))])]),
                        .element(.div, [.class(HTMLToken("controls"))], [
                            .element(.label, [.tokens(.for, [HTMLToken("stub-filter")])], [.text("Filter ")]),
                            .element(.input, [.id(HTMLToken("stub-filter")), .tokens(.type, [HTMLToken("search")]), .text(.placeholder, "path, name or file")]),
                        ]),
                        .element(.table, [.id(HTMLToken("stubs"))], [
                            .element(.thead, [], [.element(.tr, [], ["", "method", "path", "matches", "status", "name", "source", ""].map { .element(.th, [], [.text($0)]) })]),
                            .element(.tbody, [], []),
                        ]),
                        .element(.details, [.id(HTMLToken("add-stub"))], [
                            .element(.summary, [], [.text("Add a runtime stub (a JSON stub, as a stub file holds it)")]),
                            .element(.div, [.id(HTMLToken("add-stub-editor"))]),
                            button("add-stub-button", "Add"),
                            .element(.pre, [.id(HTMLToken("add-stub-result"))]),
                        ]),
                    ]),
                ]),
            ])
        page.connectsToOwnOrigin = true
        return page
    }()

    /// The page's bytes, rendered once.
    static let html: [UInt8] = Array(document.render().utf8)

    /// The policy as a response header, which can also forbid framing (a `<meta>` cannot).
    static let contentSecurityPolicy = document.contentSecurityPolicy + "; frame-ancestors 'none'"
}
