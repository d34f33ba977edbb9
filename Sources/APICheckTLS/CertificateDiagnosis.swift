import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import X509

/// Whether a server's certificate is trusted, and if not why, in words that say what to do.
///
/// The TLS stack says only "certificate verify failed", and AsyncHTTPClient retries a failed
/// connection until its connect timeout (10 s of the same refusal). So a client checks each HTTPS
/// origin once with a handshake of its own (``check(host:port:trust:timeout:)``), and when that is
/// refused, a second handshake that checks nothing reads the certificate the server presents and
/// swift-certificates says whether it expired, names another host, or comes from a CA the user has
/// not passed with `--cacert`.
public enum CertificateDiagnosis {
    /// What a verifying handshake found.
    public enum Outcome: Sendable, Equatable {
        case trusted
        /// The certificate was refused; the sentence says why and what to do.
        case refused(String)
        /// No handshake happened (refused connection, timeout, not TLS): the request will say so.
        case unreachable
    }

    /// A handshake with `trust`'s configuration to `host:port`.
    public static func check(host: String, port: Int, trust: ClientTrust, timeout: TimeAmount = .seconds(10)) async -> Outcome {
        guard !trust.insecure, let configuration = try? trust.tlsConfiguration() else { return .trusted }
        switch await handshake(host: host, port: port, configuration: configuration, timeout: timeout) {
        case .success(let leaf?) where !coversHostName(leaf, host: host):
            // swift-nio-ssl also accepts a certificate whose IP address names the socket's peer,
            // so `https://vm/` passes on a certificate for 127.0.0.1 when vm resolves there;
            // curl and browsers do not, and neither does this check.
            return .refused(explain(leaf, host: host, trusted: (try? trust.certificateAuthorities()) ?? []))
        case .success: return .trusted
        case .failure(let error) where isCertificateRefusal(error):
            let reason = await explain(host: host, port: port, trust: trust)
            return .refused(reason ?? "the server's certificate was refused (\(error)); pass the CA that signed it with --cacert FILE, or --insecure to skip the check")
        case .failure: return .unreachable
        }
    }

    /// A TLS handshake that failed on the server's certificate (not a reset or a timeout).
    public static func isCertificateRefusal(_ error: any Error) -> Bool {
        if let extra = error as? NIOSSLExtraError { return extra == .failedToValidateHostname }
        if case NIOSSLError.handshakeFailed(let underlying) = error { return "\(underlying)".contains("CERTIFICATE_VERIFY_FAILED") }
        return false
    }

    /// A sentence for `host:port`'s certificate, or `nil` when it cannot be fetched.
    public static func explain(host: String, port: Int, trust: ClientTrust, now: Date = Date(), timeout: TimeAmount = .seconds(5)) async -> String? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        guard case .success(let leaf?) = await handshake(host: host, port: port, configuration: configuration, timeout: timeout) else { return nil }
        return explain(leaf, host: host, trusted: (try? trust.certificateAuthorities()) ?? [], now: now)
    }

    /// What is wrong with `leaf` for `host`, in the order a user fixes it; a CA not passed with
    /// `--cacert` is named too, so fixing the first problem does not just reveal the next.
    public static func explain(_ leaf: Certificate, host: String, trusted: [Certificate], now: Date = Date()) -> String {
        let issuerPassed = trusted.contains { $0.subject == leaf.issuer }
        let untrustedIssuer =
            issuerPassed
            ? "" : "; it was issued by \(leaf.issuer): unless the system trusts that CA, pass it with --cacert FILE too (or --insecure to skip every check)"
        if leaf.notValidAfter < now {
            return "the server's certificate expired on \(leaf.notValidAfter) (subject \(leaf.subject)); renew it on the server" + untrustedIssuer
        }
        if leaf.notValidBefore > now {
            return "the server's certificate is not valid before \(leaf.notValidBefore); check the clocks" + untrustedIssuer
        }
        let names = TLSIdentity.hostNames(of: leaf)
        if !names.contains(where: { matches($0, host: host) }) {
            return "the server's certificate is for \(names.isEmpty ? "no host name" : names.joined(separator: ", ")), not \(host); connect by one of those names, or have it issued for \(host) (with apicheck serve --tls: --tls-host \(host))"
                + untrustedIssuer
        }
        if issuerPassed {
            return "the server's certificate names a CA passed with --cacert (\(leaf.issuer)) but was not signed by that key; pass the CA that signed it"
        }
        return "the server's certificate was issued by \(leaf.issuer), which is not trusted; pass that CA with --cacert FILE (for `apicheck serve --tls`, the ca.pem it prints), or --insecure to skip the check"
    }

    /// Whether `leaf` names `host` itself: a DNS name among its names for a host name, its
    /// address among them for an address.
    static func coversHostName(_ leaf: Certificate, host: String) -> Bool {
        TLSIdentity.hostNames(of: leaf).contains { matches($0, host: host) }
    }

    static func matches(_ pattern: String, host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let pattern = pattern.lowercased()
        if pattern.hasPrefix("*.") {
            guard let dot = host.firstIndex(of: ".") else { return false }
            return host[host.index(after: dot)...] == pattern.dropFirst(2)
        }
        return pattern == host
    }

    /// One handshake; the leaf certificate the server presented, or why it failed. The host name
    /// is sent (SNI, and checked) unless it is an address, as AsyncHTTPClient does.
    static func handshake(host: String, port: Int, configuration: TLSConfiguration, timeout: TimeAmount) async -> Result<Certificate?, any Error> {
        let address = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let serverName = IPAddressText.octets(of: address) == nil ? address : nil
        do {
            let context = try NIOSSLContext(configuration: configuration)
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(timeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                        try channel.pipeline.syncOperations.addHandler(HandshakeWaiter())
                    }
                }
                .connect(host: address, port: port).get()
            defer { channel.close(promise: nil) }
            let waiter = try await channel.pipeline.handler(type: HandshakeWaiter.self).get()
            let deadline = channel.eventLoop.scheduleTask(in: timeout) { waiter.fail(ChannelError.connectTimeout(timeout)) }
            defer { deadline.cancel() }
            try await waiter.completed(on: channel.eventLoop)
            guard let presented = try await channel.nioSSL_peerCertificate().get() else { return .success(nil) }
            return .success(try Certificate(derEncoded: presented.toDERBytes()))
        } catch {
            return .failure(error)
        }
    }
}

/// Completes when the handshake does, or fails with its error (or the connection's end).
/// Touched on its channel's event loop only.
private final class HandshakeWaiter: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    private var promise: EventLoopPromise<Void>?
    private var outcome: Result<Void, any Error>?

    func completed(on loop: any EventLoop) async throws {
        try await loop.flatSubmit { () -> EventLoopFuture<Void> in
            if let outcome = self.outcome { return loop.makeCompletedFuture(outcome) }
            let promise = loop.makePromise(of: Void.self)
            self.promise = promise
            return promise.futureResult
        }.get()
    }

    func fail(_ error: any Error) { finish(.failure(error)) }

    private func finish(_ result: Result<Void, any Error>) {
        guard outcome == nil else { return }
        outcome = result
        promise?.completeWith(result)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event { finish(.success(())) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(ChannelError.ioOnClosedChannel))
        context.fireChannelInactive()
    }
}
