@_spi(Reflection) import Swift
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` behind ``StubInterceptor``. Put first in a configuration's
/// `protocolClasses` by ``StubInterceptor/configuration(_:)``; never registered globally
/// (`URLProtocol.registerClass` does not reach `URLSession`s on Linux anyway).
///
/// It answers every request of its sessions (hermetic): requests no stub matches fail, unless the
/// interceptor was made with ``StubInterceptor/Options/passthrough``.
///
/// Delays (latency, passthrough fetches) suspend the task and resume it later: Foundation then
/// calls `startLoading()` again on this same instance, on its own queue. Calling the client later
/// from another queue instead crashes swift-corelibs-foundation under load (measured).
public final class StubURLProtocol: URLProtocol, @unchecked Sendable {
    /// The key under which a configuration carries its interceptor (`connectionProxyDictionary`).
    static let bindingKey = "APICheckStubInterceptor"
    /// Where reflection cannot reach a task's session (Apple platforms), the configuration's
    /// additional headers carry a token naming its interceptor instead; it is never journaled.
    static let tokenHeader = "X-APICheck-Interceptor"

    /// Interceptors by token, weakly: only for platforms where the token header is the way in.
    private static let byToken = Mutex<[String: WeakInterceptor]>([:])

    private struct WeakInterceptor: @unchecked Sendable {
        weak var value: StubInterceptor?
    }

    static func register(_ interceptor: StubInterceptor) {
        byToken.withLock { $0[interceptor.token] = WeakInterceptor(value: interceptor) }
    }

    static func unregister(_ interceptor: StubInterceptor) {
        _ = byToken.withLock { $0.removeValue(forKey: interceptor.token) }
    }

    /// The answer waiting for the task to be resumed.
    private let pending = PendingDelivery()

    /// Holds an answer between suspending a task and Foundation restarting it.
    private final class PendingDelivery: Sendable {
        private let value = Mutex<StubInterceptor.Delivery?>(nil)

        func store(_ delivery: StubInterceptor.Delivery) { value.withLock { $0 = delivery } }

        func take() -> StubInterceptor.Delivery? {
            value.withLock { value in
                defer { value = nil }
                return value
            }
        }
    }

    override public class func canInit(with request: URLRequest) -> Bool { true }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override public func startLoading() {
        if let ready = pending.take() {
            deliver(ready)
            return
        }
        let request = self.request  // each read of `self.request` bridges a new copy
        guard let (interceptor, configuration) = Self.binding(of: task, request: request) else {
            let message = "this session was not made by StubInterceptor (use interceptor.makeSession() or interceptor.configuration())"
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: message]))
            return
        }
        guard let body = Self.body(of: request, limit: interceptor.options.maximumRequestBodyBytes) else {
            let message = "the request body is over the limit of \(interceptor.options.maximumRequestBodyBytes) bytes"
            client?.urlProtocol(self, didFailWithError: URLError(.dataLengthExceedsMaximum, userInfo: [NSLocalizedDescriptionKey: message]))
            return
        }
        let storage = configuration?.httpShouldSetCookies == false ? nil : configuration?.httpCookieStorage
        switch interceptor.resolve(request, body: body, cookieStorage: storage) {
        case .deliver(let delivery) where delivery.delay <= 0:
            deliver(delivery)
        case .deliver(let delivery):
            later(after: delivery.delay) { delivery }
        case .passthrough(let request):
            later(after: 0) { await interceptor.fetchFromNetwork(request) }
        }
    }

    override public func stopLoading() {}

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
    /// Foundation calls `startLoading()` again, which delivers it. Cancelling meanwhile gives -999.
    private func later(after delay: Double, _ produce: @escaping @Sendable () async -> StubInterceptor.Delivery) {
        guard let task else { return }
        // `suspend()` from inside `startLoading()` would re-enter the task's queue: hop off it first.
        Task.detached { [pending] in
            task.suspend()
            let start = ContinuousClock.now
            let delivery = await produce()
            pending.store(delivery)
            let remaining = delay - (ContinuousClock.now - start).seconds
            if remaining > 0 {
                try? await Task.sleep(for: .seconds(remaining))
            }
            task.resume()
        }
    }

    // MARK: Binding and body

    /// The interceptor of the session that owns `task`, and that session's configuration.
    static func binding(of task: URLSessionTask?, request: URLRequest) -> (StubInterceptor, URLSessionConfiguration?)? {
        if let session = task.flatMap(owningSession), let proxies = session.configuration.connectionProxyDictionary,
            let interceptor = proxies[bindingKey] as? StubInterceptor
        {
            return (interceptor, session.configuration)
        }
        if let token = request.value(forHTTPHeaderField: tokenHeader), let interceptor = byToken.withLock({ $0[token]?.value }) {
            return (interceptor, nil)
        }
        return nil
    }

    /// swift-corelibs-foundation keeps the owning session in the task's `session` property, which
    /// is internal; reflection reads it. (Checked against Swift 6.3's Foundation; on a layout
    /// change requests fail with a clear error instead of reaching the network.)
    ///
    /// `Mirror` costs a quarter of this protocol's time per request (it demangles the field's
    /// type on every read), so the first task of each kind also locates the field's byte offset
    /// and checks that a plain load there gives the session `Mirror` found; later tasks of that
    /// kind read it directly. Any disagreement keeps that kind on `Mirror`.
    private static func owningSession(of task: URLSessionTask) -> URLSession? {
        let key = ObjectIdentifier(type(of: task))
        switch sessionSlots.withLock({ $0[key] }) {
        case .storedReference(let offset)?:
            return loadSession(of: task, atByteOffset: offset)
        case .mirrorChild(let level, let position)?:
            return mirrorSession(of: task, level: level, position: position)
        case nil:
            guard let (session, level, position) = locateSessionByMirror(task) else { return nil }
            var slot = SessionSlot.mirrorChild(level: level, position: position)
            if let offset = sessionFieldOffset(of: type(of: task)), loadSession(of: task, atByteOffset: offset) === session {
                slot = .storedReference(offset: offset)
            }
            sessionSlots.withLock { $0[key] = slot }
            return session
        }
    }

    /// Where a kind of task keeps its session.
    private enum SessionSlot {
        /// A strong reference at this byte offset in the task object.
        case storedReference(offset: Int)
        /// The `position`th child of the `level`th superclass mirror.
        case mirrorChild(level: Int, position: Int)
    }

    private static let sessionSlots = Mutex<[ObjectIdentifier: SessionSlot]>([:])

    private static func locateSessionByMirror(_ task: URLSessionTask) -> (URLSession, level: Int, position: Int)? {
        var mirror: Mirror? = Mirror(reflecting: task)
        var level = 0
        while let current = mirror {
            if let index = current.children.firstIndex(where: { $0.label == "session" }) {
                let position = current.children.distance(from: current.children.startIndex, to: index)
                guard let session = current.children[index].value as? URLSession else { return nil }
                return (session, level, position)
            }
            mirror = current.superclassMirror
            level += 1
        }
        return nil
    }

    private static func mirrorSession(of task: URLSessionTask, level: Int, position: Int) -> URLSession? {
        var mirror: Mirror? = Mirror(reflecting: task)
        for _ in 0..<level { mirror = mirror?.superclassMirror }
        guard let children = mirror?.children, position < children.count else { return nil }
        let child = children[children.index(children.startIndex, offsetBy: position)]
        return child.label == "session" ? child.value as? URLSession : nil
    }

    /// The byte offset of a stored property `session` whose type is an optional class-bound
    /// existential (`URLSessionProtocol!`), whose first word is the object reference.
    private static func sessionFieldOffset(of type: URLSessionTask.Type) -> Int? {
        #if canImport(FoundationNetworking)
        var found: Int?
        // `.classType` is a `static var` (not concurrency-safe to read); its raw value is 1.
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1)) { name, offset, fieldType, _ in
            guard String(cString: name) == "session", _typeName(fieldType).contains("URLSessionProtocol") else { return true }
            found = offset
            return false
        }
        return found
        #else
        return nil
        #endif
    }

    private static func loadSession(of task: URLSessionTask, atByteOffset offset: Int) -> URLSession? {
        let object = Unmanaged.passUnretained(task).toOpaque()
        guard let reference = object.load(fromByteOffset: offset, as: UnsafeRawPointer?.self) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(reference).takeUnretainedValue() as? URLSession
    }

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
