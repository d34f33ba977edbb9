import APICheckTLS
import Foundation
import Testing
import X509

@Suite struct LocalCertificateAuthorityTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-tls-\(UUID().uuidString)")

    @Test func theCAIsMadeOnceAndKeptAcrossRuns() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, created) = try LocalCertificateAuthority.open(in: folder)
        #expect(created)
        let (again, createdAgain) = try LocalCertificateAuthority.open(in: folder)
        #expect(!createdAgain)
        #expect(again.certificate.sha256Fingerprint == first.certificate.sha256Fingerprint)
        #expect(first.certificate.sha256Fingerprint.split(separator: ":").count == 32)
        // The CA's key and the server's are the owner's alone.
        let keyMode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("ca-key.pem").path)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        #expect(try first.certificate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
    }

    @Test func theServerCertificateIsWhatApplePlatformsAccept() throws {
        let authority = try LocalCertificateAuthority.ephemeral()
        let identity = try authority.issueServerIdentity(hosts: ["10.0.2.2", "Stubs.Local"])
        let leaf = identity.leaf
        #expect(identity.hostNames == ["localhost", "127.0.0.1", "::1", "10.0.2.2", "stubs.local"])
        #expect(try leaf.extensions.extendedKeyUsage?.contains(.serverAuth) == true)
        #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
        // Apple's limit: 825 days at most.
        #expect(leaf.notValidAfter.timeIntervalSince(leaf.notValidBefore) <= 825 * 86_400)
        #expect(leaf.issuer == authority.certificate.subject)
        #expect(authority.certificate.publicKey.isValidSignature(leaf.signature, for: leaf))
        #expect(leaf.signatureAlgorithm == .ecdsaWithSHA256)
    }

    @Test func theServerCertificateIsReusedThenIssuedAgainWhenItsHostsChangeOrItNearsItsEnd() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (authority, _) = try LocalCertificateAuthority.open(in: folder)
        let (first, firstEvent) = try authority.serverIdentity(hosts: [])
        #expect(firstEvent == .issued(reason: "there was none"))
        let (kept, keptEvent) = try authority.serverIdentity(hosts: [])
        #expect(keptEvent == .reused)
        #expect(kept.leaf.serialNumber == first.leaf.serialNumber)

        let (widened, widenedEvent) = try authority.serverIdentity(hosts: ["10.0.2.2"])
        guard case .issued(let reason) = widenedEvent else {
            Issue.record("a new host name must issue a new certificate")
            return
        }
        #expect(reason.contains("host names changed"))
        #expect(widened.hostNames.contains("10.0.2.2"))

        // 800 days on: within 30 days of the end (825), so issued again, by the same CA.
        let later = Date().addingTimeInterval(800 * 86_400)
        let (renewed, renewedEvent) = try authority.serverIdentity(hosts: ["10.0.2.2"], now: later)
        guard case .issued(let renewal) = renewedEvent else {
            Issue.record("a certificate near its end must be issued again")
            return
        }
        #expect(renewal.contains("ends on"))
        #expect(renewed.leaf.notValidAfter > widened.leaf.notValidAfter)
        #expect(renewed.leaf.issuer == authority.certificate.subject)
    }

    @Test func aCertificateOfAnotherCAIsIssuedAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (authority, _) = try LocalCertificateAuthority.open(in: folder)
        _ = try authority.serverIdentity()
        // Another CA's certificate in the folder (a copied tls dir, say).
        let stranger = try LocalCertificateAuthority.ephemeral().issueServerIdentity()
        try stranger.certificatePEM().write(to: folder.appendingPathComponent("server.pem"), atomically: true, encoding: .utf8)
        try stranger.privateKeyPEM().write(to: folder.appendingPathComponent("server-key.pem"), atomically: true, encoding: .utf8)
        let (_, event) = try authority.serverIdentity()
        #expect(event == .issued(reason: "it was not signed by this CA"))
    }

    @Test func hostNamesAreCheckedBeforeAnythingIsIssued() throws {
        #expect(throws: TLSSetupError.self) { try LocalCertificateAuthority.normalizedHosts(["not a host!"]) }
        #expect(try LocalCertificateAuthority.normalizedHosts(["*.stubs.test", "LOCALHOST"]) == ["localhost", "127.0.0.1", "::1", "*.stubs.test"])
    }
}

@Suite struct TLSIdentityFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-pem-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func write(_ text: String, _ name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aChainAndItsKeyLoad() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let identity = try LocalCertificateAuthority.ephemeral().issueServerIdentity()
        let loaded = try TLSIdentity.load(certificateFile: write(identity.certificatePEM(), "cert.pem"), keyFile: write(identity.privateKeyPEM(), "key.pem"))
        #expect(loaded.leaf == identity.leaf)
        _ = try loaded.serverContext(http2: true)
    }

    @Test func aKeyThatIsNotTheCertificatesIsAnErrorNamingTheKeyFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let authority = try LocalCertificateAuthority.ephemeral()
        let one = try authority.issueServerIdentity()
        let other = try authority.issueServerIdentity()
        let keyPath = try write(other.privateKeyPEM(), "other-key.pem")
        let error = #expect(throws: TLSSetupError.self) { try TLSIdentity.load(certificateFile: write(one.certificatePEM(), "cert.pem"), keyFile: keyPath) }
        #expect(error?.path == keyPath)
        #expect(error?.description.contains("does not belong to the certificate") == true)
    }

    @Test func filesThatAreNotWhatTheyShouldBeAreNamed() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let identity = try LocalCertificateAuthority.ephemeral().issueServerIdentity()
        let notPEM = try write("just text", "plain.txt")
        let keyPath = try write(identity.privateKeyPEM(), "key.pem")
        let certificatePath = try write(identity.certificatePEM(), "cert.pem")

        let plain = #expect(throws: TLSSetupError.self) { try TLSIdentity.load(certificateFile: notPEM, keyFile: keyPath) }
        #expect(plain?.description.hasPrefix("\(notPEM): error: not PEM") == true)
        // The two swapped.
        let swapped = #expect(throws: TLSSetupError.self) { try TLSIdentity.load(certificateFile: keyPath, keyFile: certificatePath) }
        #expect(swapped?.path == keyPath)
        #expect(swapped?.message.contains("no CERTIFICATE block") == true)
        let missing = #expect(throws: TLSSetupError.self) { try TLSIdentity.load(certificateFile: folder.path + "/nope.pem", keyFile: keyPath) }
        #expect(missing?.message.contains("no such file") == true)
    }
}

@Suite struct CertificateDiagnosisTests {
    @Test func eachRefusalSaysWhatToDo() throws {
        let authority = try LocalCertificateAuthority.ephemeral()
        let leaf = try authority.issueServerIdentity(hosts: ["stubs.test"]).leaf

        let untrusted = CertificateDiagnosis.explain(leaf, host: "127.0.0.1", trusted: [])
        #expect(untrusted.contains("not trusted") && untrusted.contains("--cacert"))

        let wrongHost = CertificateDiagnosis.explain(leaf, host: "api.example.com", trusted: [authority.certificate])
        #expect(wrongHost.contains("not api.example.com") && wrongHost.contains("stubs.test"))

        let expired = CertificateDiagnosis.explain(leaf, host: "localhost", trusted: [], now: Date().addingTimeInterval(900 * 86_400))
        #expect(expired.contains("expired"))
        // Its CA was not passed either: said now, not after the user has renewed it.
        #expect(expired.contains("pass it with --cacert FILE too"))
        let wrongHostUntrusted = CertificateDiagnosis.explain(leaf, host: "api.example.com", trusted: [])
        #expect(wrongHostUntrusted.contains("not api.example.com") && wrongHostUntrusted.contains("--cacert"))
        #expect(!wrongHost.contains("--cacert"))

        let wildcard = try authority.issueServerIdentity(hosts: ["*.stubs.test"]).leaf
        #expect(CertificateDiagnosis.explain(wildcard, host: "api.stubs.test", trusted: []).contains("not trusted"))
        #expect(CertificateDiagnosis.explain(wildcard, host: "a.b.stubs.test", trusted: []).contains("not a.b.stubs.test"))
    }
}
