#if canImport(Security)
import Foundation
import Security

/// A `URLSessionDelegate` that trusts exactly one CA: the one that issued a stub server's
/// certificate (``StubServer/certificateAuthorityPEM``). An app's own HTTPS code path then runs
/// against stubs in a test, with no change to the keychain and no blanket "trust anything":
/// the server's certificate is still checked (chain, dates, host name), only against this anchor.
///
/// ```swift
/// try await withStubServer(stubs, configuration: .init(tls: try .ephemeral())) { server in
///     let session = URLSession(configuration: .ephemeral, delegate: server.trustingDelegate(), delegateQueue: nil)
///     let (data, _) = try await session.data(from: server.url.appending(path: "movies/42"))
/// }
/// ```
///
/// Apple platforms only: swift-corelibs-foundation's `URLSession` cannot evaluate trust per
/// session on Linux; there, use AsyncHTTPClient with `additionalTrustRoots` (docs/stub-server.md).
public final class StubServerTrust: NSObject, URLSessionDelegate, @unchecked Sendable {
    // Immutable after init; SecCertificate is an immutable CF object.
    private let anchor: SecCertificate

    /// `nil` when `pem` holds no certificate.
    public init?(certificateAuthorityPEM pem: String) {
        let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: base64), let certificate = SecCertificateCreateWithData(nil, der as CFData) else { return nil }
        anchor = certificate
    }

    public func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
            let trust = challenge.protectionSpace.serverTrust
        else { return (.performDefaultHandling, nil) }
        SecTrustSetAnchorCertificates(trust, [anchor] as CFArray)
        SecTrustSetAnchorCertificatesOnly(trust, true)
        var error: CFError?
        guard SecTrustEvaluateWithError(trust, &error) else { return (.cancelAuthenticationChallenge, nil) }
        return (.useCredential, URLCredential(trust: trust))
    }
}

extension StubServer {
    /// A delegate for `URLSession` that trusts this server's CA and nothing else; `nil` when the
    /// server is cleartext or was given its own certificate (``TLS/certificateAuthority`` unset).
    public func trustingDelegate() -> StubServerTrust? {
        certificateAuthorityPEM.flatMap { StubServerTrust(certificateAuthorityPEM: $0) }
    }
}
#endif
