import APICheckTLS
import Foundation

extension StubServer {
    /// HTTPS for a stub server: the identity it presents, whether it offers HTTP/2 (ALPN `h2`
    /// beside `http/1.1`), and, for mutual TLS, the CAs whose client certificates it requires.
    public struct TLS: Sendable {
        public var identity: TLSIdentity
        /// Offer HTTP/2 by ALPN (default); `false` serves HTTP/1.1 only (`--http2 off`).
        public var http2: Bool
        /// When set, clients must present a certificate signed by one of these (`--client-ca`).
        public var clientCertificateAuthorities: CertificateBundle?
        /// The local CA that issued ``identity``, when one did: what clients must trust
        /// (``StubServer/certificateAuthorityPEM``).
        public var certificateAuthority: LocalCertificateAuthority?

        public init(
            identity: TLSIdentity, http2: Bool = true, clientCertificateAuthorities: CertificateBundle? = nil,
            certificateAuthority: LocalCertificateAuthority? = nil
        ) {
            self.identity = identity
            self.http2 = http2
            self.clientCertificateAuthorities = clientCertificateAuthorities
            self.certificateAuthority = certificateAuthority
        }

        /// A CA made in memory for this server alone and a certificate for `localhost`,
        /// `127.0.0.1`, `::1` and `hosts`: what a test uses (nothing is written to disk). Trust
        /// ``StubServer/certificateAuthorityPEM`` in the client.
        public static func ephemeral(hosts: [String] = [], http2: Bool = true) throws(TLSSetupError) -> TLS {
            let authority = try LocalCertificateAuthority.ephemeral()
            return TLS(identity: try authority.issueServerIdentity(hosts: hosts), http2: http2, certificateAuthority: authority)
        }
    }

    /// The PEM of the CA that issued the server's certificate, when the server made it
    /// (``TLS/ephemeral(hosts:http2:)``, `apicheck serve --tls`): hand it to the client under
    /// test as its trust root.
    public var certificateAuthorityPEM: String? { configuration.tls?.certificateAuthority?.certificatePEM }
}
