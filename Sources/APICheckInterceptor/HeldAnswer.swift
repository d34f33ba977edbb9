import Foundation
import Synchronization

/// An answer a ``StubURLProtocol`` holds back while its task is suspended (a stub's latency, a
/// passthrough fetch). It resumes the task once, when the answer is due, and `startLoading()` then
/// takes it.
///
/// A test scope that ends meanwhile cuts it short (``cut(with:)``): the task resumes at once and
/// its protocol delivers that failure itself. Calling `URLSessionTask.cancel()` instead races
/// swift-corelibs-foundation, whose cancel traps when it reaches a task that completed meanwhile.
final class HeldAnswer: Sendable {
    private enum Phase {
        /// The answer is still being produced (a passthrough fetch).
        case producing
        /// Produced, waiting out the rest of its delay.
        case delaying(StubInterceptor.Delivery)
        /// Due: the task was resumed, `startLoading()` takes it.
        case ready(StubInterceptor.Delivery)
        /// Taken: delivered, nothing changes it any more.
        case taken
    }

    private struct State {
        var phase = Phase.producing
        /// Set by ``cut(with:)``: replaces whatever answer comes.
        var replacement: StubInterceptor.Delivery?
    }

    private let state = Mutex(State())
    private let resume: @Sendable () -> Void

    /// `resume` restarts the suspended task (Foundation then calls `startLoading()` again); it is
    /// called once, when the answer is due.
    init(resume: @escaping @Sendable () -> Void) {
        self.resume = resume
    }

    /// The produced answer, due `seconds` from now (at once when not positive), unless it was cut.
    func answer(_ delivery: StubInterceptor.Delivery, after seconds: Double) {
        let due = state.withLock { state -> Bool in
            guard case .producing = state.phase else { return false }  // cut meanwhile: already due
            if seconds > 0, state.replacement == nil {
                state.phase = .delaying(delivery)
                return false
            }
            state.phase = .ready(state.replacement ?? delivery)
            return true
        }
        if due {
            resume()
        } else if seconds > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in endDelay() }
        }
    }

    /// Replaces the answer with `failure` and makes it due now, unless it was already taken.
    func cut(with failure: StubInterceptor.Delivery) {
        let due = state.withLock { state -> Bool in
            guard state.replacement == nil else { return false }
            state.replacement = failure
            switch state.phase {
            case .producing, .delaying:
                state.phase = .ready(failure)
                return true
            case .ready:
                state.phase = .ready(failure)  // resumed, not yet taken
                return false
            case .taken:
                return false
            }
        }
        if due { resume() }
    }

    /// The answer once due; `nil` before, and after it was taken once.
    func take() -> StubInterceptor.Delivery? {
        state.withLock { state in
            guard case .ready(let delivery) = state.phase else { return nil }
            state.phase = .taken
            return delivery
        }
    }

    /// The delay is over: due now, unless a cut came first.
    private func endDelay() {
        let due = state.withLock { state -> Bool in
            guard case .delaying(let delivery) = state.phase else { return false }
            state.phase = .ready(delivery)
            return true
        }
        if due { resume() }
    }
}
