import Foundation
import NIOSSL
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
