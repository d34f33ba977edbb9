@testable import APICheckInterceptor
import APICheckTesting
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The state machine of an answer held back while its task waits, and what the end of a test
/// scope does to it.
@Suite struct HeldAnswerTests {
    private func answer(_ body: String) -> StubInterceptor.Delivery {
        let response = HTTPURLResponse(url: url("/"), statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
        return StubInterceptor.Delivery(content: .response(response, Data(body.utf8)), delay: 0)
    }

    private let cancelled = StubInterceptor.Delivery(content: .failure(URLError(.cancelled)), delay: 0)

    private func body(_ delivery: StubInterceptor.Delivery?) -> String? {
        guard case .response(_, let data) = delivery?.content else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private func isCancelled(_ delivery: StubInterceptor.Delivery?) -> Bool {
        guard case .failure(let error) = delivery?.content else { return false }
        return (error as? URLError)?.code == .cancelled
    }

    /// A held answer and how often it resumed its task.
    private func held() -> (HeldAnswer, resumes: Resumes) {
        let resumes = Resumes()
        return (HeldAnswer(resume: { resumes.count.withLock { $0 += 1 } }), resumes)
    }

    private final class Resumes: Sendable {
        let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
    }

    @Test func anAnswerDueAtOnceResumesTheTaskOnceAndIsTakenOnce() {
        let (held, resumes) = held()
        #expect(held.take() == nil, "still producing")
        held.answer(answer("ok"), after: 0)
        #expect(resumes.value == 1)
        #expect(body(held.take()) == "ok")
        #expect(held.take() == nil, "taken once")
    }

    @Test func aDelayedAnswerIsNotDueBeforeItsDelay() {
        let (held, resumes) = held()
        held.answer(answer("ok"), after: 60)
        #expect(held.take() == nil && resumes.value == 0)
    }

    @Test func aDelayedAnswerBecomesDueOnceItsDelayIsOver() async throws {
        let (held, resumes) = held()
        held.answer(answer("ok"), after: 0.05)
        // Waits for the timer without timing it: the suite runs loaded.
        for _ in 0..<600 where resumes.value == 0 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(resumes.value == 1)
        #expect(body(held.take()) == "ok")
    }

    @Test func aCutDuringTheDelayMakesTheFailureDueAtOnce() {
        let (held, resumes) = held()
        held.answer(answer("ok"), after: 60)
        held.cut(with: cancelled)
        #expect(resumes.value == 1, "the cut resumed the task; the timer later finds nothing to do")
        #expect(isCancelled(held.take()))
    }

    @Test func aCutWhileProducingIsDueAtOnceAndTheAnswerThatComesIsDropped() {
        let (held, resumes) = held()
        held.cut(with: cancelled)
        #expect(resumes.value == 1, "a passthrough fetch still under way does not hold the end of the scope")
        held.answer(answer("ok"), after: 30)
        #expect(resumes.value == 1)
        #expect(isCancelled(held.take()))
    }

    @Test func aCutReplacesADueAnswerNotYetTaken() {
        let (held, resumes) = held()
        held.answer(answer("ok"), after: 0)
        held.cut(with: cancelled)
        #expect(resumes.value == 1)
        #expect(isCancelled(held.take()))
    }

    @Test func aCutAfterTheAnswerWasTakenChangesNothing() {
        let (held, resumes) = held()
        held.answer(answer("ok"), after: 0)
        #expect(body(held.take()) == "ok")
        held.cut(with: cancelled)
        #expect(held.take() == nil)
        #expect(resumes.value == 1)
    }

    @Test func theFirstCutStays() {
        let (held, _) = held()
        held.cut(with: cancelled)
        held.cut(with: answer("second"))
        #expect(isCancelled(held.take()))
    }

    /// A request waiting out a stub's latency when its scope ends fails at once with -999 and says
    /// why, instead of answering 30 s later into a finished test.
    @Test func theEndOfAScopeFailsARequestStillWaitingOutItsLatency() async throws {
        // Not timed (the suite runs loaded): uncut, the request would answer 200 "late" after 30 s.
        let error: URLError? = try await withStubs("Fixtures/slow-stubs") { stubs in
            let session = stubs.session
            let request = Task { () -> URLError? in
                do {
                    _ = try await session.data(from: URL(string: "http://localhost/slow")!)
                    return nil
                } catch {
                    return error as? URLError
                }
            }
            try await Task.sleep(for: .milliseconds(200))
            return request
        }.value
        #expect(error?.code == .cancelled)
        // Which of its two wordings depends on whether the answer was held yet when the scope ended.
        #expect(error?.localizedDescription.contains("the stubs scope opened at APICheckInterceptorTests/HeldAnswerTests.swift:") == true, "\(String(describing: error))")
    }

    /// The race that stopped CI: a scope ending right after its last answer arrived cancelled a
    /// task swift-corelibs-foundation had not yet marked completed, which traps. Hundreds of
    /// scopes each ending at once after their answers.
    @Test func scopesEndingRightAfterTheirAnswersNeverTouchFinishedTasks() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<100 {
                        try await withStubs("Fixtures/stubs") { stubs in
                            _ = try await stubs.session.data(from: greeting)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
