import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority of this machine's own, made with swift-certificates: what
/// `apicheck serve --tls` signs its server certificate with, so a phone, a simulator or `curl`
/// trusts the stub server once the CA is trusted (as mkcert does).
///
/// Kept in a folder (`ca.pem`, `ca-key.pem`, `server.pem`, `server-key.pem`; keys `0600`) and reused
/// across runs: the CA is made once, and the server certificate is issued again from it when the
/// host names change or it is within 30 days of its end. Tests use ``ephemeral(now:)``, which
/// writes nothing.
public struct LocalCertificateAuthority: Sendable {
    /// Apple's limit for a TLS server certificate (iOS 13, macOS 10.15): longer ones are refused.
    public static let serverValidityDays = 825
    /// A server certificate this close to its end is issued again.
    public static let renewalMargin: TimeInterval = 30 * 86_400
    static let authorityValidityDays = 3_650

    public let certificate: Certificate
    let privateKey: Certificate.PrivateKey
    /// Where it is kept; `nil` for an ephemeral one.
    public let folder: URL?

    /// `ca.pem` in the folder.
    public var certificatePath: String? { folder?.appendingPathComponent("ca.pem").path }

    /// The CA certificate as PEM (what a client trusts).
    public var certificatePEM: String { (try? certificate.serializeAsPEM().pemString).map { $0 + "\n" } ?? "" }

    /// The host names every server certificate covers, besides those asked for.
    public static let loopbackHosts = ["localhost", "127.0.0.1", "::1"]

    init(certificate: Certificate, privateKey: Certificate.PrivateKey, folder: URL?) {
        self.certificate = certificate
        self.privateKey = privateKey
        self.folder = folder
    }

    /// A CA in memory only, for one test run.
    public static func ephemeral(now: Date = Date()) throws(TLSSetupError) -> LocalCertificateAuthority {
        try make(now: now, folder: nil)
    }

    /// The CA kept in `folder`, made (and the folder created, `0700`) when there is none.
    /// `created` says whether it is new, that is, whether clients must be told to trust it.
    public static func open(in folder: URL, now: Date = Date()) throws(TLSSetupError) -> (authority: LocalCertificateAuthority, created: Bool) {
        let certificatePath = folder.appendingPathComponent("ca.pem").path
        let keyPath = folder.appendingPathComponent("ca-key.pem").path
        let manager = FileManager.default
        if manager.fileExists(atPath: certificatePath) || manager.fileExists(atPath: keyPath) {
            let certificate = try PEMFiles.certificates(at: certificatePath)[0]
            let key = try PEMFiles.privateKey(at: keyPath)
            guard certificate.publicKey == key.publicKey else {
                throw TLSSetupError(path: keyPath, "this key does not belong to \(certificatePath); remove the folder \(folder.path) to make a new CA (clients must then trust the new one)")
            }
            guard certificate.notValidAfter > now.addingTimeInterval(renewalMargin) else {
                throw TLSSetupError(path: certificatePath, "the local CA ends on \(certificate.notValidAfter); remove the folder \(folder.path) to make a new one (and trust it again)")
            }
            return (LocalCertificateAuthority(certificate: certificate, privateKey: key, folder: folder), false)
        }
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw TLSSetupError(path: folder.path, "the folder for the local CA cannot be made: \(error.localizedDescription)")
        }
        let authority = try make(now: now, folder: folder)
        try KeptFile.write(authority.privateKeyPEM(), to: keyPath, secret: true)
        try KeptFile.write(authority.certificatePEM, to: certificatePath, secret: false)
        return (authority, true)
    }

    private static func make(now: Date, folder: URL?) throws(TLSSetupError) -> LocalCertificateAuthority {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let user = ProcessInfo.processInfo.environment["USER"] ?? "local"
        let host = ProcessInfo.processInfo.hostName
        do {
            let name = try DistinguishedName {
                OrganizationName("APICheck local CA")
                OrganizationalUnitName("\(user)@\(host)")
                CommonName("APICheck local CA \(user)@\(host)")
            }
            let start = now.addingTimeInterval(-3_600)
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
                notValidBefore: start, notValidAfter: start.addingTimeInterval(TimeInterval(authorityValidityDays) * 86_400),
                issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    SubjectKeyIdentifier(hash: key.publicKey)
                },
                issuerPrivateKey: key
            )
            return LocalCertificateAuthority(certificate: certificate, privateKey: key, folder: folder)
        } catch {
            throw TLSSetupError(path: folder?.path, "the local CA cannot be made: \(error)")
        }
    }

    func privateKeyPEM() throws(TLSSetupError) -> String {
        do {
            return try privateKey.serializeAsPEM().pemString + "\n"
        } catch {
            throw TLSSetupError(path: nil, "the CA key cannot be written as PEM: \(error)")
        }
    }

    // MARK: Server certificates

    /// A new server certificate for `hosts` (besides ``loopbackHosts``): the serverAuth extended
    /// key usage, subject alternative names, ``serverValidityDays`` days, a new P-256 key.
    public func issueServerIdentity(hosts: [String] = [], now: Date = Date()) throws(TLSSetupError) -> TLSIdentity {
        let names = try Self.normalizedHosts(hosts)
        let alternativeNames: [GeneralName] = names.map { name in
            if let octets = IPAddressText.octets(of: name) { return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(octets))) }
            return .dnsName(name)
        }
        return try issue(what: "server", now: now) { key in
            let subject = try DistinguishedName {
                OrganizationName("APICheck stub server")
                CommonName(names.first(where: { IPAddressText.octets(of: $0) == nil }) ?? names[0])
            }
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(alternativeNames)
                SubjectKeyIdentifier(hash: key.publicKey)
                AuthorityKeyIdentifier(keyIdentifier: try self.certificate.extensions.subjectKeyIdentifier?.keyIdentifier)
            }
            return (subject, extensions)
        }
    }

    /// A client certificate (the clientAuth extended key usage) for mutual TLS against a server
    /// started with this CA as its `--client-ca`: what a test or a device presents.
    public func issueClientIdentity(commonName: String, now: Date = Date()) throws(TLSSetupError) -> TLSIdentity {
        try issue(what: "client", now: now) { _ in
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.clientAuth])
                AuthorityKeyIdentifier(keyIdentifier: try self.certificate.extensions.subjectKeyIdentifier?.keyIdentifier)
            }
            return (try DistinguishedName { CommonName(commonName) }, extensions)
        }
    }

    /// A certificate signed by this CA for a new P-256 key: valid from an hour ago (clocks
    /// differ) for ``serverValidityDays`` days, ECDSA with SHA-256.
    private func issue(
        what: String, now: Date, _ describe: (Certificate.PrivateKey) throws -> (DistinguishedName, Certificate.Extensions)
    ) throws(TLSSetupError) -> TLSIdentity {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        do {
            let (subject, extensions) = try describe(key)
            let start = now.addingTimeInterval(-3_600)
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
                notValidBefore: start, notValidAfter: start.addingTimeInterval(TimeInterval(Self.serverValidityDays) * 86_400),
                issuer: self.certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
                issuerPrivateKey: privateKey
            )
            return try TLSIdentity(chain: [certificate], privateKey: key)
        } catch let error as TLSSetupError {
            throw error
        } catch {
            throw TLSSetupError(path: nil, "the \(what) certificate cannot be made: \(error)")
        }
    }

    /// The server certificate kept beside the CA, issued again (and kept) when it is missing,
    /// unreadable, not this CA's, not for exactly these host names, or near its end; the event
    /// says which, for the notice.
    public func serverIdentity(hosts: [String] = [], now: Date = Date()) throws(TLSSetupError) -> (identity: TLSIdentity, event: ServerCertificateEvent) {
        guard let folder else { return (try issueServerIdentity(hosts: hosts, now: now), .issued(reason: "a new CA")) }
        let wanted = try Self.normalizedHosts(hosts)
        let certificatePath = folder.appendingPathComponent("server.pem").path
        let keyPath = folder.appendingPathComponent("server-key.pem").path
        var reason = "there was none"
        if FileManager.default.fileExists(atPath: certificatePath) {
            do {
                let kept = try TLSIdentity.load(certificateFile: certificatePath, keyFile: keyPath)
                if let why = reasonToReissue(kept, hosts: wanted, now: now) {
                    reason = why
                } else {
                    return (kept, .reused)
                }
            } catch {
                reason = "the kept one could not be used (\(error))"
            }
        }
        let identity = try issueServerIdentity(hosts: hosts, now: now)
        try KeptFile.write(identity.privateKeyPEM(), to: keyPath, secret: true)
        try KeptFile.write(identity.certificatePEM(), to: certificatePath, secret: false)
        return (identity, .issued(reason: reason))
    }

    private func reasonToReissue(_ kept: TLSIdentity, hosts: [String], now: Date) -> String? {
        let leaf = kept.leaf
        guard leaf.issuer == certificate.subject, certificate.publicKey.isValidSignature(leaf.signature, for: leaf) else {
            return "it was not signed by this CA"
        }
        let have = Set(kept.hostNames.map { $0.lowercased() })
        if have != Set(hosts) {
            return "the host names changed (\(have.sorted().joined(separator: ", ")) → \(hosts.joined(separator: ", ")))"
        }
        if leaf.notValidAfter < now.addingTimeInterval(Self.renewalMargin) { return "it ends on \(leaf.notValidAfter)" }
        if leaf.notValidBefore > now { return "it is not valid yet (the clock moved back)" }
        return nil
    }

    /// ``loopbackHosts`` then `extra`, lower-cased, without repeats; each a DNS name (a leading
    /// `*.` allowed) or an IP address.
    public static func normalizedHosts(_ extra: [String]) throws(TLSSetupError) -> [String] {
        var names: [String] = []
        for raw in loopbackHosts + extra {
            let name = raw.lowercased()
            guard IPAddressText.octets(of: name) != nil || isDNSName(name) else {
                throw TLSSetupError(path: nil, "--tls-host \(raw) is neither a host name nor an IP address")
            }
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    static func isDNSName(_ name: String) -> Bool {
        let body = name.hasPrefix("*.") ? String(name.dropFirst(2)) : name
        guard !body.isEmpty, body.utf8.count <= 253 else { return false }
        return body.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }
        }
    }
}

/// Whether ``LocalCertificateAuthority/serverIdentity(hosts:now:)`` kept the certificate or made one.
public enum ServerCertificateEvent: Sendable, Equatable {
    case reused
    case issued(reason: String)
}

/// Files written whole or not at all (a temporary file renamed), keys readable by their owner only.
enum KeptFile {
    static func write(_ text: String, to path: String, secret: Bool) throws(TLSSetupError) {
        let temporary = path + ".\(ProcessInfo.processInfo.processIdentifier).tmp"
        let created = FileManager.default.createFile(
            atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: secret ? 0o600 : 0o644])
        guard created, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw TLSSetupError(path: path, "cannot be written: \(String(cString: strerror(errno)))")
        }
    }
}
