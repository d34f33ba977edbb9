import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import X509

/// What a client of an HTTPS API trusts: the system's roots, plus CA files (`--cacert`), or,
/// with `insecure`, anything (`--insecure`: the caller warns every run and records it).
public struct ClientTrust: Sendable, Equatable {
    /// PEM files of CAs trusted besides the system's (`apicheck serve --tls`'s `ca.pem`, say).
    public var certificateAuthorityFiles: [String]
    /// No certificate is checked: neither its issuer, nor its dates, nor its host name.
    public var insecure: Bool

    public init(certificateAuthorityFiles: [String] = [], insecure: Bool = false) {
        self.certificateAuthorityFiles = certificateAuthorityFiles
        self.insecure = insecure
    }

    /// The system's roots only.
    public static let system = ClientTrust()

    /// The certificates of the CA files, checked now so a wrong path is an error naming it before
    /// any request.
    public func certificateAuthorities() throws(TLSSetupError) -> [Certificate] {
        var all: [Certificate] = []
        for path in certificateAuthorityFiles { all += try PEMFiles.certificates(at: path) }
        return all
    }

    /// swift-nio-ssl's client configuration for this trust: TLS 1.2 or later.
    public func tlsConfiguration() throws(TLSSetupError) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        if insecure {
            configuration.certificateVerification = .none
            return configuration
        }
        var roots: [NIOSSLCertificate] = []
        for certificate in try certificateAuthorities() {
            do {
                roots.append(try NIOSSLCertificate(bytes: DERBytes.of(certificate), format: .der))
            } catch {
                throw TLSSetupError(path: certificateAuthorityFiles.first, "a CA certificate cannot be used: \(error)")
            }
        }
        if !roots.isEmpty { configuration.additionalTrustRoots = [.certificates(roots)] }
        return configuration
    }
}

/// Why a server's certificate was refused, found by a second handshake that checks nothing and
/// then reading the certificate it presented with swift-certificates: the TLS stack says only
/// "certificate verify failed", and the user needs to know whether it expired, names another
/// host, or comes from a CA they have not passed with `--cacert`.
public enum CertificateDiagnosis {
    /// A sentence for `host:port`'s certificate, or `nil` when it cannot be fetched.
    public static func explain(host: String, port: Int, trust: ClientTrust, now: Date = Date(), timeout: TimeAmount = .seconds(5)) async -> String? {
        guard let leaf = await presentedCertificate(host: host, port: port, timeout: timeout) else { return nil }
        return explain(leaf, host: host, trusted: (try? trust.certificateAuthorities()) ?? [], now: now)
    }

    /// What is wrong with `leaf` for `host`, in the order a user fixes it.
    public static func explain(_ leaf: Certificate, host: String, trusted: [Certificate], now: Date = Date()) -> String {
        if leaf.notValidAfter < now {
            return "the server's certificate expired on \(leaf.notValidAfter) (subject \(leaf.subject)); renew it on the server"
        }
        if leaf.notValidBefore > now {
            return "the server's certificate is not valid before \(leaf.notValidBefore); check the clocks"
        }
        let names = TLSIdentity.hostNames(of: leaf)
        if !names.contains(where: { matches($0, host: host) }) {
            return "the server's certificate is for \(names.isEmpty ? "no host name" : names.joined(separator: ", ")), not \(host); connect by one of those names, or issue it for \(host) (apicheck serve --tls-host \(host))"
        }
        if trusted.contains(where: { $0.subject == leaf.issuer }) {
            return "the server's certificate names a CA passed with --cacert (\(leaf.issuer)) but was not signed by that key; pass the CA that signed it"
        }
        return "the server's certificate was issued by \(leaf.issuer), which is not trusted; pass that CA with --cacert FILE (for `apicheck serve --tls`, the ca.pem it prints), or --insecure to skip the check"
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

    /// The leaf certificate `host:port` presents, with no check at all.
    static func presentedCertificate(host: String, port: Int, timeout: TimeAmount) async -> Certificate? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        guard let context = try? NIOSSLContext(configuration: configuration) else { return nil }
        let serverName = IPAddressText.octets(of: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))) == nil ? host : nil
        let group = MultiThreadedEventLoopGroup.singleton
        do {
            let channel = try await ClientBootstrap(group: group)
                .connectTimeout(timeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                        try channel.pipeline.syncOperations.addHandler(HandshakeWaiter())
                    }
                }
                .connect(host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: port).get()
            defer { channel.close(promise: nil) }
            let waiter = try await channel.pipeline.handler(type: HandshakeWaiter.self).get()
            let deadline = channel.eventLoop.scheduleTask(in: timeout) { waiter.promise?.fail(ChannelError.connectTimeout(timeout)) }
            defer { deadline.cancel() }
            try await waiter.completed(on: channel.eventLoop)
            guard let presented = try await channel.nioSSL_peerCertificate().get() else { return nil }
            return try Certificate(derEncoded: presented.toDERBytes())
        } catch {
            return nil
        }
    }
}

/// Completes when the handshake does (or fails with the connection).
private final class HandshakeWaiter: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    var promise: EventLoopPromise<Void>?
    private var done = false

    func completed(on loop: any EventLoop) async throws {
        try await loop.flatSubmit { () -> EventLoopFuture<Void> in
            if self.done { return loop.makeSucceededVoidFuture() }
            let promise = loop.makePromise(of: Void.self)
            self.promise = promise
            return promise.futureResult
        }.get()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event {
            done = true
            promise?.succeed()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise?.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise?.fail(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }
}
