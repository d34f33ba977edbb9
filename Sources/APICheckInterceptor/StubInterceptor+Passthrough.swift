import APICheckModel
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sees what the real network answered the requests an interceptor passed through
/// (``StubInterceptor/Options/passthroughObserver``). `APICheckTesting` records them as stub files
/// with one; the interceptor itself knows nothing of recording.
public protocol PassthroughObserver: Sendable {
    /// Called once per request that got a whole HTTP answer, from a background task, before the
    /// client receives the answer (so what it does is done when the client's `await` returns).
    /// Not called when the request failed (no connection, timeout, cancelled).
    func passedThrough(_ exchange: RecordedExchange)
}

extension StubInterceptor {
    /// Sends `request` to the real network and returns the answer for delivery, after showing it
    /// to the ``Options/passthroughObserver``.
    ///
    /// `body` is the request body as already read for matching: a body stream cannot be read twice.
    /// The answer is buffered whole (`data(for:)`; swift-corelibs-foundation has no `bytes(for:)`),
    /// as it was before there were observers: the observer shares that buffer, it adds none.
    func fetchFromNetwork(_ request: URLRequest, body: Data) async -> Delivery {
        guard let realNetwork else { return Delivery(content: .failure(URLError(.unsupportedURL)), delay: 0) }
        var forwarded = request
        if request.httpBodyStream != nil || !body.isEmpty { forwarded.httpBody = body }
        do {
            let (data, response) = try await realNetwork.data(for: forwarded)
            guard let http = response as? HTTPURLResponse else { return Delivery(content: .failure(URLError(.badServerResponse)), delay: 0) }
            if let observer = options.passthroughObserver, let url = request.url {
                // Status, headers and the whole body as the client gets them; hop-by-hop headers and
                // `Content-Encoding` left out (URLSession hands over bodies already decoded).
                let exchange = RecordedExchange(
                    request: StubRequest(method: request.httpMethod ?? "GET", url: url, headers: Self.headers(of: request), body: body),
                    response: UpstreamResponse(status: http.statusCode, headers: Self.recordableHeaders(of: http), body: data),
                    upstream: OriginRewriter.origin(of: url))
                observer.passedThrough(exchange)
            }
            return Delivery(content: .response(http, data), delay: 0)
        } catch let error as URLError {
            logger.debug("passthrough failed", metadata: ["url": "\(request.url?.absoluteString ?? "")", "error": "\(error.code)"])
            return Delivery(content: .failure(error), delay: 0)
        } catch {
            return Delivery(content: .failure(URLError(.unknown)), delay: 0)
        }
    }

    /// The response's headers sorted by name, without hop-by-hop ones and `Content-Encoding`
    /// (the body is already decoded). Foundation has combined repeated fields with `, `.
    static func recordableHeaders(of response: HTTPURLResponse) -> [HTTPHeader] {
        response.allHeaderFields.compactMap { key, value -> HTTPHeader? in
            guard let name = key as? String, let value = value as? String else { return nil }
            guard !UpstreamResponse.isHopByHop(name), !name.caseInsensitiveEquals("Content-Encoding") else { return nil }
            return HTTPHeader(name: name, value: value)
        }
        .sorted { $0.name.lowercased() < $1.name.lowercased() }
    }
}
