import APICheckServer
import APICheckTLS
import ArgumentParser
import Foundation
import Logging

/// `--tls` and its company for `serve` and `record`: HTTPS with a certificate from a local CA kept
/// under `--tls-dir` (made once, trusted once), or one's own (`--cert`, `--key`); HTTP/2 by ALPN
/// unless `--http2 off`; client certificates with `--client-ca`; cleartext HTTP/2 with `--h2c`.
struct ServerTLSFlags: ParsableArguments {
    enum Switch: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @Flag(name: .customLong("tls"), help: "Serve HTTPS (HTTP/1.1 and HTTP/2) with a certificate from a local CA made once under --tls-dir; the CA's path, fingerprint and how to trust it are printed.")
    var tls = false

    @Option(name: .customLong("tls-host"), help: ArgumentHelp("Another host name or address the certificate covers besides localhost, 127.0.0.1 and ::1 (repeatable), e.g. 10.0.2.2 for the Android emulator.", valueName: "name"))
    var tlsHosts: [String] = []

    @Option(name: .customLong("tls-dir"), help: ArgumentHelp("Where the local CA and the server certificate are kept (default: $XDG_STATE_HOME/apicheck/tls, or ~/.local/state/apicheck/tls).", valueName: "dir"), completion: .directory)
    var tlsDirectory: String?

    @Option(name: .customLong("cert"), help: ArgumentHelp("Serve HTTPS with this PEM certificate chain (leaf first) instead of the local CA's; needs --key.", valueName: "file"), completion: .file())
    var certificate: String?

    @Option(name: .customLong("key"), help: ArgumentHelp("The PEM private key of --cert.", valueName: "file"), completion: .file())
    var key: String?

    @Option(name: .customLong("client-ca"), help: ArgumentHelp("Require client certificates signed by a CA in this PEM file (mutual TLS).", valueName: "file"), completion: .file())
    var clientCA: String?

    @Option(name: .customLong("http2"), help: "With TLS, offer HTTP/2 by ALPN beside HTTP/1.1 (on), or HTTP/1.1 only (off).")
    var http2: Switch = .on

    @Flag(name: .customLong("h2c"), help: "Without TLS, also speak cleartext HTTP/2 to clients that start with its preface (prior knowledge, e.g. curl --http2-prior-knowledge).")
    var cleartextHTTP2 = false

    /// Whether the server speaks TLS.
    var enabled: Bool { tls || certificate != nil }

    func validate() throws {
        if (certificate == nil) != (key == nil) { throw ValidationError("--cert and --key go together: the certificate chain and its private key.") }
        if certificate != nil, !tlsHosts.isEmpty {
            throw ValidationError("--tls-host names the hosts of the certificate the local CA issues; with --cert, the certificate's own names apply.")
        }
        if !enabled {
            if http2 == .off { throw ValidationError("--http2 off turns HTTP/2 off on the TLS port: add --tls (cleartext HTTP/2 is off unless --h2c).") }
            if clientCA != nil { throw ValidationError("--client-ca requires client certificates over TLS: add --tls (or --cert and --key).") }
            if !tlsHosts.isEmpty || tlsDirectory != nil { throw ValidationError("--tls-host and --tls-dir shape the local CA's certificate: add --tls.") }
        } else if cleartextHTTP2 {
            throw ValidationError("--h2c is HTTP/2 without TLS; with --tls, HTTP/2 is offered by ALPN already (--http2 off turns it off).")
        }
    }

    static var defaultDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("apicheck/tls")
        }
        let home = URL(fileURLWithPath: NSHomeDirectory())
        #if os(macOS)
        return home.appendingPathComponent("Library/Application Support/APICheck/tls")
        #else
        return home.appendingPathComponent(".local/state/apicheck/tls")
        #endif
    }

    /// The server's TLS, its notices written to `output` (standard error: the first line on
    /// standard output stays the URL). `nil` without TLS. A bad file exits 2 naming it.
    /// The server's TLS and whether its CA was just made; ``PreparedTLS/printTrust(for:output:)``
    /// says how to trust it once the server listens (its real port known).
    struct PreparedTLS {
        var tls: StubServer.TLS?
        var madeCA = false

        func printTrust(for server: StubServer, output: Output) {
            guard let path = tls?.certificateAuthority?.certificatePath else { return }
            output.writeError(ServerTLSFlags.trustInstructions(caPath: path, origin: server.baseURL, detailed: madeCA))
        }
    }

    func configuration(output: Output) throws -> PreparedTLS {
        guard enabled else { return PreparedTLS() }
        do {
            return try makeConfiguration(output: output)
        } catch {
            output.writeError("\(error)")
            throw ExitCode(2)
        }
    }

    private func makeConfiguration(output: Output) throws(TLSSetupError) -> PreparedTLS {
        var clientCAs: CertificateBundle?
        if let clientCA { clientCAs = try CertificateBundle.load(clientCA) }
        if let certificate, let key {
            let identity = try TLSIdentity.load(certificateFile: certificate, keyFile: key)
            if identity.leaf.notValidAfter < Date() {
                output.writeError("\(certificate): warning: the certificate expired on \(identity.leaf.notValidAfter); clients will refuse it")
            }
            return PreparedTLS(tls: StubServer.TLS(identity: identity, http2: http2 == .on, clientCertificateAuthorities: clientCAs))
        }
        let folder = tlsDirectory.map { URL(fileURLWithPath: $0) } ?? Self.defaultDirectory
        let (authority, created) = try LocalCertificateAuthority.open(in: folder)
        let (identity, event) = try authority.serverIdentity(hosts: tlsHosts)
        if created { output.writeError("Made a local CA in \(folder.path); clients must trust it once (below).") }
        if case .issued(let reason) = event, !created {
            output.writeError("Issued a new server certificate from the local CA: \(reason).")
        }
        let caPath = authority.certificatePath ?? folder.appendingPathComponent("ca.pem").path
        output.writeError("TLS: certificate for \(identity.hostNames.joined(separator: ", ")), valid until \(Self.day(identity.leaf.notValidAfter)); CA \(caPath)")
        output.writeError("CA SHA-256 fingerprint: \(authority.certificate.sha256Fingerprint)")
        let tls = StubServer.TLS(identity: identity, http2: http2 == .on, clientCertificateAuthorities: clientCAs, certificateAuthority: authority)
        return PreparedTLS(tls: tls, madeCA: created)
    }

    /// How to trust the CA: in full the first time, as one line after.
    static func trustInstructions(caPath: String, origin: String, detailed: Bool) -> String {
        guard detailed else { return "Trust it: curl --cacert \(caPath) \(origin)/ · apicheck crawl --cacert \(caPath) · more in docs/stub-server.md#https" }
        return """
            Trust the CA once, where your client runs:
              curl:               curl --cacert \(caPath) \(origin)/
              apicheck:           apicheck crawl \(origin)/ --cacert \(caPath)
              macOS (Safari, URLSession on the Mac):
                                  sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain \(caPath)
              iOS Simulator:      xcrun simctl keychain booted add-root-cert \(caPath)
              iOS device:         AirDrop ca.pem, install the profile, then Settings › General › About › Certificate Trust Settings
              Android:            copy it to res/raw/apicheck_ca.pem and add to res/xml/network_security_config.xml
                                  <debug-overrides><trust-anchors><certificates src="@raw/apicheck_ca"/></trust-anchors></debug-overrides>
            The CA's key never leaves \(URL(fileURLWithPath: caPath).deletingLastPathComponent().path) (readable by you only); see docs/stub-server.md#https.
            """
    }

    private static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}

/// `--cacert` and `--insecure` for every command that talks to an API over HTTPS.
struct ClientTLSFlags: ParsableArguments {
    @Option(name: .customLong("cacert"), help: ArgumentHelp("Also trust the CA certificates in this PEM file (repeatable), e.g. the ca.pem 'apicheck serve --tls' prints.", valueName: "file"), completion: .file())
    var certificateAuthorities: [String] = []

    @Flag(name: .customLong("insecure"), help: "Do not check TLS certificates at all (issuer, dates, host name). Warned about on every run and recorded in the report.")
    var insecure = false

    func validate() throws {
        if insecure, !certificateAuthorities.isEmpty { throw ValidationError("--insecure checks no certificate, so --cacert would not be used: pass one or the other.") }
        for path in certificateAuthorities where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("--cacert '\(path)': no such file.")
        }
    }

    var trust: ClientTrust { ClientTrust(certificateAuthorityFiles: certificateAuthorities, insecure: insecure) }

    /// The `--insecure` warning, every run.
    func warnIfInsecure(_ output: Output, command: String) {
        guard insecure else { return }
        output.writeError("apicheck \(command): warning: --insecure: TLS certificates are not checked (issuer, dates, host name); pass --cacert FILE to trust a private CA instead")
    }
}

extension ClientTLSFlags {
    /// The trust, its CA files read now: one that is not a PEM certificate exits 2 naming it,
    /// before any request. Warns about `--insecure`.
    func checkedTrust(_ output: Output, command: String) throws -> ClientTrust {
        warnIfInsecure(output, command: command)
        do {
            _ = try trust.tlsConfiguration()
        } catch {
            output.writeError("apicheck \(command): \(error)")
            throw ExitCode(2)
        }
        return trust
    }
}
