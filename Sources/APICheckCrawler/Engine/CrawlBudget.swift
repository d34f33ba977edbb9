import APICheckHypermedia
import Foundation
import Synchronization

/// The limits every request draws on: a request count, an overall deadline and an optional
/// rate. Kept apart from the queue (the lesson lychee drew from muffet and linkinator): the
/// queue decides what to fetch, the budget whether and when.
final class CrawlBudget: Sendable {
    private struct State {
        var requests = 0
        var nextStart: ContinuousClock.Instant
    }

    private let state: Mutex<State>
    let maximumRequests: Int
    let deadline: ContinuousClock.Instant
    private let interval: Duration?

    private let interruption: CrawlInterruption?

    init(maximumRequests: Int, deadline: Duration, requestsPerSecond: Double?, interruption: CrawlInterruption? = nil) {
        self.interruption = interruption
        let now = ContinuousClock.now
        self.maximumRequests = maximumRequests
        self.deadline = now + deadline
        if let rate = requestsPerSecond, rate > 0 {
            interval = .nanoseconds(Int64(1e9 / rate))
        } else {
            interval = nil
        }
        state = Mutex(State(nextStart: now))
    }

    enum Refusal: Error, Equatable {
        case requestLimit(Int)
        case deadline
        case interrupted(String)

        var reason: String {
            switch self {
            case .requestLimit(let limit): "the request limit (\(limit)) was reached"
            case .deadline: "the crawl's deadline passed"
            case .interrupted(let reason): reason
            }
        }
    }

    /// Takes one request from the budget, waiting for the rate limit if there is one.
    func acquire() async throws(Refusal) {
        let now = ContinuousClock.now
        if let reason = interruption?.reason { throw .interrupted(reason) }
        guard now < deadline else { throw .deadline }
        let start: ContinuousClock.Instant? = try state.withLock { state throws(Refusal) in
            guard state.requests < maximumRequests else { throw .requestLimit(maximumRequests) }
            state.requests += 1
            guard let interval else { return nil }
            let start = max(state.nextStart, now)
            state.nextStart = start + interval
            return start
        }
        if let start, start > now {
            guard start < deadline else { throw .deadline }
            try? await Task.sleep(until: start, clock: .continuous)
        }
    }

    var requestsMade: Int { state.withLock { $0.requests } }

    var remaining: Duration { deadline - ContinuousClock.now }
}
