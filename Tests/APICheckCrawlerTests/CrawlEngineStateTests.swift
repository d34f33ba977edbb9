import APICheckModel
import APICheckVerifier
import Foundation
import Testing

@testable import APICheckCrawler
@testable import APICheckHypermedia

/// The crawl's state machines without any I/O: what a request does after each answer, and the
/// order a level's answers are taken in.
@Suite struct RedirectStateTests {
    private func state(
        _ url: String = "https://api.example.com/a", method: String = "GET", maximumRedirects: Int = 3, maximumRetries: Int = 2,
        credentialedHost: String = "api.example.com"
    ) -> RedirectState {
        var request = FetchRequest(method: method, url: URL(string: url)!, headers: [HTTPHeader(name: "Authorization", value: "Bearer s3cret")])
        if method == "POST" { request.body = Data("{}".utf8) }
        return RedirectState(
            request: request, maximumRedirects: maximumRedirects, maximumRetries: maximumRetries, maximumRetryDelay: .seconds(5),
            crawlHeaders: ["Authorization"], isInScope: { $0.host?.hasSuffix("example.com") ?? false },
            hasCredentials: { $0.host == credentialedHost })
    }

    private func location(_ value: String) -> [HTTPHeader] { [HTTPHeader(name: "Location", value: value)] }

    @Test func anAnswerThatIsNoRedirectEndsTheRequest() {
        var state = state()
        #expect(state.next(after: 200, headers: [], remaining: .seconds(60)) == .answer(finalURL: URL(string: "https://api.example.com/a")!))
        var noLocation = self.state()
        #expect(noLocation.next(after: 302, headers: [], remaining: .seconds(60)) == .answer(finalURL: URL(string: "https://api.example.com/a")!))
    }

    @Test func redirectsAreFollowedUpToTheLimitAndLoopsAreFailures() {
        var state = state(maximumRedirects: 2)
        #expect(state.next(after: 301, headers: location("/b"), remaining: .seconds(60)) == .follow)
        #expect(state.request.url.absoluteString == "https://api.example.com/b")
        #expect(state.next(after: 302, headers: location("/c"), remaining: .seconds(60)) == .follow)
        #expect(state.next(after: 302, headers: location("/d"), remaining: .seconds(60)) == .fail("more than 2 redirects (--max-redirects)"))

        var loop = self.state()
        #expect(loop.next(after: 307, headers: location("/b"), remaining: .seconds(60)) == .follow)
        #expect(loop.next(after: 307, headers: location("/A/../a"), remaining: .seconds(60)) == .fail("a redirect loop at https://api.example.com/a"))
    }

    @Test func aRedirectOutOfScopeIsSkippedAndCredentialsStayOnTheirOrigin() {
        var away = state()
        #expect(away.next(after: 302, headers: location("https://elsewhere.test/x"), remaining: .seconds(60)) == .skip("redirects to another origin (https://elsewhere.test/x)"))
        var cdn = state()
        #expect(cdn.next(after: 302, headers: location("https://cdn.example.com/a"), remaining: .seconds(60)) == .follow)
        #expect(cdn.request.headers.isEmpty, "the credential is not sent where a redirect points")
        var home = state()
        #expect(home.next(after: 302, headers: location("/b"), remaining: .seconds(60)) == .follow)
        #expect(home.request.headers.map(\.name) == ["Authorization"])
    }

    @Test func seeOtherAndARedirectedPostBecomeABodilessGet() {
        var post = state(method: "POST")
        #expect(post.next(after: 302, headers: location("/b"), remaining: .seconds(60)) == .follow)
        #expect(post.request.method == "GET" && post.request.body.isEmpty)
        var temporary = state(method: "POST")
        #expect(temporary.next(after: 307, headers: location("/b"), remaining: .seconds(60)) == .follow)
        #expect(temporary.request.method == "POST" && !temporary.request.body.isEmpty, "307 keeps the method and body")
        var seeOther = state(method: "DELETE")
        #expect(seeOther.next(after: 303, headers: location("/b"), remaining: .seconds(60)) == .follow)
        #expect(seeOther.request.method == "GET")
    }

    @Test func busyAnswersAreRetriedAsRetryAfterSaysWithinTheDeadline() {
        var state = state(maximumRetries: 2)
        #expect(state.next(after: 503, headers: [HTTPHeader(name: "Retry-After", value: "2")], remaining: .seconds(60)) == .retry(after: .seconds(2)))
        #expect(state.next(after: 429, headers: [HTTPHeader(name: "Retry-After", value: "60")], remaining: .seconds(60)) == .retry(after: .seconds(5)), "capped at --max-retry-delay")
        var late = self.state()
        #expect(late.next(after: 503, headers: [HTTPHeader(name: "Retry-After", value: "4")], remaining: .seconds(3)) == .answer(finalURL: URL(string: "https://api.example.com/a")!), "a retry past the deadline is not made")
        var exhausted = self.state(maximumRetries: 1)
        #expect(exhausted.next(after: 429, headers: [], remaining: .seconds(60)) == .retry(after: .milliseconds(500)))
        #expect(exhausted.next(after: 429, headers: [], remaining: .seconds(60)) == .answer(finalURL: URL(string: "https://api.example.com/a")!))
        #expect(RedirectState.retryDelay(nil, attempt: 3) == .seconds(2))
    }

    @Test func aLocationThatIsNoURLIsAFailure() {
        var state = state()
        #expect(state.next(after: 301, headers: location("http://[::1"), remaining: .seconds(60)) == .fail("the redirect's Location 'http://[::1' is not a URL"))
    }
}

@Suite struct LevelWindowTests {
    @Test func answersAreTakenInLevelOrderWhateverOrderTheyArriveIn() {
        var window = LevelWindow<String>(concurrency: 3)
        var positions: [Int] = []
        while window.canStart { positions.append(window.start()) }
        #expect(positions == [0, 1, 2], "at most the concurrency runs at once")
        #expect(window.finish(2, "c").isEmpty && window.finish(1, "b").isEmpty)
        #expect(window.held == 2)
        #expect(window.finish(0, "a") == ["a", "b", "c"])
        #expect(window.canStart && window.held == 0)
    }

    @Test func aSlowAnswerPausesFetchingAtTheWindow() {
        var window = LevelWindow<Int>(concurrency: 2)
        #expect(window.window == 64)
        let slow = window.start()
        var finished = 0
        // Everything after the slow first answer arrives: the window fills, then nothing starts.
        while window.canStart {
            let position = window.start()
            #expect(window.finish(position, position).isEmpty)
            finished += 1
        }
        #expect(finished == 63 && window.running == 1 && !window.canStart)
        let ready = window.finish(slow, slow)
        #expect(ready == Array(0..<64) && window.canStart)
    }
}
