import X509

/// Certificates read from one PEM file: the CAs a server requires client certificates from
/// (`apicheck serve --client-ca FILE`: mutual TLS).
public struct CertificateBundle: Sendable {
    public let certificates: [Certificate]
    /// Where they were read from.
    public let path: String?

    public init(certificates: [Certificate], path: String? = nil) {
        self.certificates = certificates
        self.path = path
    }

    public static func load(_ path: String) throws(TLSSetupError) -> CertificateBundle {
        CertificateBundle(certificates: try PEMFiles.certificates(at: path), path: path)
    }
}
