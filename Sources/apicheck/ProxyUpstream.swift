import APICheckHTTPFetcher
import APICheckModel
import APICheckRecording
import APICheckServer
import Foundation

/// The stub server's upstream in spy and record modes: forwards with AsyncHTTPClient and, when
/// recording, writes each answer down before it is returned (so a client that goes away
/// mid-response cannot leave a half-written stub: the recorder writes whole files or none).
struct ProxyUpstream: StubServerUpstream {
    let forwarder: UpstreamForwarder
    let recorder: StubRecorder?
    /// `--no-rewrite-links` turns it off: answers are then passed on byte for byte.
    var rewritesLinks = true

    var origin: String { forwarder.origin }

    func forward(_ request: StubRequest, target: String) async throws -> UpstreamResponse {
        let response = try await forwarder.forward(request, target: target)
        recorder?.record(RecordedExchange(request: request, response: response, upstream: forwarder.origin))
        return response
    }
}
