import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` behind ``StubInterceptor``. Each configuration the interceptor makes
/// (``StubInterceptor/configuration(_:)``) puts a subclass of its own first in `protocolClasses`,
/// by which its requests find the interceptor (see `SessionBinding`); it is never registered
/// globally (`URLProtocol.registerClass` does not reach `URLSession`s on Linux anyway).
///
/// It answers every request of its sessions (hermetic): requests no stub matches fail, unless the
/// interceptor was made with ``StubInterceptor/Options/passthrough`` (or
/// ``StubInterceptor/Options/bypassStubs``).
///
/// Delays (latency, passthrough fetches) suspend the task and resume it later: Foundation then
/// calls `startLoading()` again on this same instance, on its own queue. Calling the client later
/// from another queue instead crashes swift-corelibs-foundation under load (measured).
public class StubURLProtocol: URLProtocol {
    /// The key under which a configuration keeps its interceptor alive
    /// (`connectionProxyDictionary`): a session then owns its interceptor, as it owns its
    /// delegate. Requests find the interceptor by their protocol class, not through this.
    static let ownerKey = "APICheckStubInterceptor"

    /// The answer held back while the task is suspended, and the interceptor that keeps it.
    private let held = Mutex<(answer: HeldAnswer, interceptor: StubInterceptor)?>(nil)

    override public class func canInit(with request: URLRequest) -> Bool { true }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override public func startLoading() {
        if let (answer, interceptor) = held.withLock({ $0 }) {
            // Restarted by its held answer: deliver it, never resolve the request twice.
            if let due = answer.take() {
                interceptor.release(answer)
                deliver(due)
            }
            return
        }
        let request = self.request  // each read of `self.request` bridges a new copy
        guard let binding = SessionBinding.binding(of: type(of: self)), let interceptor = binding.interceptor else {
            let message = type(of: self) == StubURLProtocol.self
                ? "this session was not made by StubInterceptor (use interceptor.makeSession() or interceptor.configuration())"
                : "the StubInterceptor that made this session's configuration is gone: keep it alive while the session is in use"
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: message]))
            return
        }
        guard let body = Self.body(of: request, limit: interceptor.options.maximumRequestBodyBytes) else {
            let message = "the request body is over the limit of \(interceptor.options.maximumRequestBodyBytes) bytes"
            client?.urlProtocol(self, didFailWithError: URLError(.dataLengthExceedsMaximum, userInfo: [NSLocalizedDescriptionKey: message]))
            return
        }
        switch interceptor.resolve(request, body: body, cookieStorage: binding.cookieStorageInUse) {
        case .deliver(let delivery) where delivery.delay <= 0:
            deliver(delivery)
        case .deliver(let delivery):
            later(after: delivery.delay, for: interceptor) { delivery }
        case .passthrough(let request, let body):
            later(after: 0, for: interceptor) { await interceptor.fetchFromNetwork(request, body: body) }
        }
    }

    /// The task was cancelled (or finished): its held answer, if any, is not kept for a cut.
    override public func stopLoading() {
        if let (answer, interceptor) = held.withLock({ $0 }) { interceptor.release(answer) }
    }

    private func deliver(_ delivery: StubInterceptor.Delivery) {
        switch delivery.content {
        case .response(let response, let data):
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !data.isEmpty { client?.urlProtocol(self, didLoad: data) }
            client?.urlProtocolDidFinishLoading(self)
        case .failure(let error):
            client?.urlProtocol(self, didFailWithError: error)
        }
    }

    /// Suspends the task, produces the answer, and resumes the task after `delay` seconds so that
    /// Foundation calls `startLoading()` again, which delivers it. Cancelling meanwhile gives -999;
    /// so does the end of a test scope (``StubInterceptor/cutShortHeldAnswers(_:)``).
    private func later(
        after delay: Double, for interceptor: StubInterceptor, _ produce: @escaping @Sendable () async -> StubInterceptor.Delivery
    ) {
        guard let task else { return }
        let answer = HeldAnswer(resume: { task.resume() })
        held.withLock { $0 = (answer, interceptor) }
        let url = request.url
        // `suspend()` from inside `startLoading()` would re-enter the task's queue: hop off it first.
        Task.detached {
            task.suspend()
            interceptor.keep(answer, for: url)  // once suspended: a cut resumes the task
            let start = ContinuousClock.now
            let delivery = await produce()
            answer.answer(delivery, after: delay - (ContinuousClock.now - start).seconds)
        }
    }

    // MARK: Body

    /// The body from `httpBody`, or read from `httpBodyStream` (Apple platforms move data-task
    /// bodies there); `nil` when over `limit`.
    static func body(of request: URLRequest, limit: Int) -> Data? {
        if let body = request.httpBody { return body.count <= limit ? body : nil }
        guard let stream = request.httpBodyStream else { return Data() }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
            if data.count > limit { return nil }
        }
        return data
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
