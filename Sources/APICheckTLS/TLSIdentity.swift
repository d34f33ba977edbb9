import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A server's certificate chain (leaf first) and its private key, checked to belong together.
///
/// Made by a ``LocalCertificateAuthority`` or read from PEM files (`apicheck serve --cert --key`);
/// either way what the TLS stack gets was parsed and checked here first, so a bad file is an error
/// naming it rather than a handshake that fails later.
public struct TLSIdentity: Sendable {
    /// The chain, leaf first.
    public let chain: [Certificate]
    public let privateKey: Certificate.PrivateKey

    public var leaf: Certificate { chain[0] }

    /// Checks that the key is the leaf's. Throws when the chain is empty or the key is another's.
    public init(chain: [Certificate], privateKey: Certificate.PrivateKey, keyPath: String? = nil) throws(TLSSetupError) {
        guard let leaf = chain.first else { throw TLSSetupError(path: nil, "a certificate chain needs at least one certificate") }
        guard leaf.publicKey == privateKey.publicKey else {
            throw TLSSetupError(
                path: keyPath,
                "this private key does not belong to the certificate \(leaf.subject); pass the key that was made with it (--key)"
            )
        }
        self.chain = chain
        self.privateKey = privateKey
    }

    /// Reads a PEM chain (leaf first, then any intermediates) and a PEM private key (PKCS#8, SEC1
    /// or PKCS#1 RSA).
    public static func load(certificateFile: String, keyFile: String) throws(TLSSetupError) -> TLSIdentity {
        let chain = try PEMFiles.certificates(at: certificateFile)
        let key = try PEMFiles.privateKey(at: keyFile)
        return try TLSIdentity(chain: chain, privateKey: key, keyPath: keyFile)
    }

    /// The chain as PEM, leaf first.
    public func certificatePEM() throws(TLSSetupError) -> String {
        do {
            return try chain.map { try $0.serializeAsPEM().pemString }.joined(separator: "\n") + "\n"
        } catch {
            throw TLSSetupError(path: nil, "the certificate cannot be written as PEM: \(error)")
        }
    }

    /// The key as PEM (PKCS#8).
    public func privateKeyPEM() throws(TLSSetupError) -> String {
        do {
            return try privateKey.serializeAsPEM().pemString + "\n"
        } catch {
            throw TLSSetupError(path: nil, "the private key cannot be written as PEM: \(error)")
        }
    }

    /// The host names and addresses the leaf is valid for (its subject alternative names).
    public var hostNames: [String] { Self.hostNames(of: leaf) }

    static func hostNames(of certificate: Certificate) -> [String] {
        guard let names = try? certificate.extensions.subjectAlternativeNames else { return [] }
        return names.compactMap { name in
            switch name {
            case .dnsName(let dns): dns
            case .ipAddress(let octets): IPAddressText.text(of: Array(octets.bytes))
            default: nil
            }
        }
    }

    // MARK: For swift-nio-ssl

    /// The server's TLS context: TLS 1.2 or later, ALPN `h2` (when `http2`) then `http/1.1`, and,
    /// with `clientCertificateAuthorities`, client certificates required and checked against them.
    public func serverContext(http2: Bool, clientCertificateAuthorities: [Certificate]? = nil) throws(TLSSetupError) -> NIOSSLContext {
        do {
            let chain = try self.chain.map { try NIOSSLCertificate(bytes: DERBytes.of($0), format: .der) }
            let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM().utf8), format: .pem)
            var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
            configuration.minimumTLSVersion = .tlsv12
            configuration.applicationProtocols = http2 ? ["h2", "http/1.1"] : ["http/1.1"]
            // A peer that never answers close_notify holds a closing connection this long (5 s by default).
            configuration.shutdownTimeout = .seconds(2)
            if let clientCertificateAuthorities {
                let roots = try clientCertificateAuthorities.map { try NIOSSLCertificate(bytes: DERBytes.of($0), format: .der) }
                configuration.trustRoots = .certificates(roots)
                configuration.certificateVerification = .noHostnameVerification
                configuration.sendCANameList = true
            }
            return try NIOSSLContext(configuration: configuration)
        } catch let error as TLSSetupError {
            throw error
        } catch {
            throw TLSSetupError(path: nil, "the TLS stack refused the certificate or key: \(error)")
        }
    }
}

/// DER encodings, for fingerprints and for handing certificates to BoringSSL.
enum DERBytes {
    static func of(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}

extension Certificate {
    /// SHA-256 of the DER encoding, as upper-case hex pairs joined by `:` (what `openssl x509
    /// -fingerprint -sha256` and the macOS keychain show).
    public var sha256Fingerprint: String {
        guard let der = try? DERBytes.of(self) else { return "" }
        return SHA256.hash(data: der).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}

/// `127.0.0.1` and `::1` as certificate octets and back.
enum IPAddressText {
    static func octets(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    static func text(of octets: [UInt8]) -> String? {
        let family: Int32
        switch octets.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        return octets.withUnsafeBytes { bytes in
            guard inet_ntop(family, bytes.baseAddress, &buffer, socklen_t(buffer.count)) != nil else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
