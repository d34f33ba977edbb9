import APICheckJSON
import Foundation
import Testing

/// HTTPS end to end with the real binary: `serve --tls` making and keeping its local CA, `crawl`
/// and `verify` trusting it with `--cacert` (and refusing it without, saying so), `--insecure`
/// warned about and recorded, `record` from an HTTPS upstream through a proxy that listens with
/// TLS too, and bad certificate files named.
@Suite(.serialized) struct HTTPSCommandTests {
    typealias ServeProcess = ServeCommandTests.ServeProcess
    typealias Folder = RecordVerifyTests.Folder

    static func json(_ text: String) throws -> JSONValue { try JSONParser().parseValue(Array(text.utf8)) }

    @Test func serveTLSMakesItsCAOnceAndTheCrawlerTrustsItWithCACert() throws {
        let state = try Folder()
        let server = try ServeProcess(["stubs/hal-shop", "--port", "0", "--tls", "--tls-dir", state.path])
        try server.waitUntilListening()
        #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
        let caPath = state.path + "/ca.pem"
        #expect(FileManager.default.fileExists(atPath: caPath))
        // How to trust the CA is written once the server listens, after the URL line.
        let deadline = ContinuousClock.now + .seconds(10)
        while !server.errors.contains("Trust the CA once"), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(server.errors.contains("Made a local CA in \(state.path)"))
        #expect(server.errors.contains("CA SHA-256 fingerprint: "))
        #expect(server.errors.contains("curl --cacert \(caPath) \(server.baseURL)/"), "the trust hint names the real port")
        #expect(server.errors.contains("xcrun simctl keychain booted add-root-cert"))

        let trusted = try CLI.run(["crawl", server.baseURL + "/", "--cacert", caPath, "--format", "json"])
        #expect(trusted.status == 0 || trusted.status == 1, "\(trusted.stderr)")
        let report = try Self.json(trusted.stdout)
        #expect(report["errors"] == nil || report["errors"] == .array([]), "\(trusted.stdout.prefix(1500))")
        #expect(report["configuration"]?["insecureTLS"] == nil)

        let untrusted = try CLI.run(["crawl", server.baseURL + "/"])
        #expect(untrusted.status == 2)
        #expect(untrusted.stdout.contains("which is not trusted; pass that CA with --cacert FILE"), "\(untrusted.stdout)")

        let insecure = try CLI.run(["crawl", server.baseURL + "/", "--insecure", "--format", "json"])
        #expect(insecure.status == 0 || insecure.status == 1, "\(insecure.stderr)")
        #expect(insecure.stderr.contains("warning: --insecure: TLS certificates are not checked"))
        #expect(try Self.json(insecure.stdout)["configuration"]?["insecureTLS"] == .bool(true))

        // verify against the HTTPS server: its own stubs, no drift.
        let verify = try CLI.run(["verify", "stubs/hal-shop", "--against", server.baseURL, "--cacert", caPath])
        #expect(verify.status == 0, "\(verify.stdout) \(verify.stderr)")
        let fingerprint = server.errors.split(separator: "\n").first { $0.hasPrefix("CA SHA-256 fingerprint") }
        #expect(server.stop() == 0)

        // The next run keeps the CA (clients trust it once) and the certificate; a new host name
        // issues a certificate again from the same CA.
        let again = try ServeProcess(["stubs/hal-shop", "--port", "0", "--tls", "--tls-dir", state.path, "--tls-host", "10.0.2.2"])
        try again.waitUntilListening()
        #expect(!again.errors.contains("Made a local CA"))
        #expect(again.errors.contains("Issued a new server certificate from the local CA: the host names changed"), "\(again.errors)")
        #expect(again.errors.split(separator: "\n").first { $0.hasPrefix("CA SHA-256 fingerprint") } == fingerprint)
        #expect(again.errors.contains("certificate for localhost, 127.0.0.1, ::1, 10.0.2.2"))
        #expect(again.stop() == 0)
    }

    @Test func recordingFromAnHTTPSUpstreamThroughAProxyThatListensWithTLS() throws {
        let state = try Folder()
        let upstream = try ServeProcess(["stubs/hal-shop", "--port", "0", "--tls", "--tls-dir", state.path])
        try upstream.waitUntilListening()
        let caPath = state.path + "/ca.pem"
        let recording = try Folder()
        let proxy = try ServeProcess(
            [upstream.baseURL, "--to", recording.path, "--port", "0", "--cacert", caPath, "--tls", "--tls-dir", state.path], command: "record")
        try proxy.waitUntilListening()
        #expect(proxy.baseURL.hasPrefix("https://"))
        let crawl = try CLI.run(["crawl", proxy.baseURL + "/", "--cacert", caPath, "--format", "json"])
        #expect(crawl.status == 0 || crawl.status == 1, "\(crawl.stdout.prefix(1500)) \(crawl.stderr)")
        let crawled = try Self.json(crawl.stdout)
        #expect(crawled["errors"] == nil || crawled["errors"] == .array([]), "\(crawl.stdout.prefix(1500))")
        #expect(proxy.stop(SIGINT) == 0)
        #expect(proxy.errors.contains(" written"), "\(proxy.errors)")
        let lint = try CLI.run(["lint", recording.path])
        #expect(lint.status == 0, "\(lint.stdout) \(lint.stderr)")
        // What was recorded replays the upstream's crawl.
        let replay = try CLI.run(["crawl", upstream.baseURL + "/", "--stubs", recording.path, "--format", "json"])
        #expect(replay.status == crawl.status)
        #expect(upstream.stop() == 0)
    }

    @Test func aKeyThatIsNotTheCertificatesStopsServeNamingTheFile() throws {
        let state = try Folder()
        // Two certificates of one CA: each key belongs to the other's certificate only.
        let first = try ServeProcess(["stubs/hal-shop", "--port", "0", "--tls", "--tls-dir", state.path])
        try first.waitUntilListening()
        #expect(first.stop() == 0)
        try FileManager.default.copyItem(atPath: state.path + "/server-key.pem", toPath: state.path + "/first-key.pem")
        let second = try ServeProcess(["stubs/hal-shop", "--port", "0", "--tls", "--tls-dir", state.path, "--tls-host", "stubs.test"])
        try second.waitUntilListening()
        #expect(second.stop() == 0)

        let mismatched = try CLI.run(["serve", "stubs/hal-shop", "--port", "0", "--cert", state.path + "/server.pem", "--key", state.path + "/first-key.pem"])
        #expect(mismatched.status == 2)
        #expect(mismatched.stderr.contains("\(state.path)/first-key.pem: error: this private key does not belong to the certificate"), "\(mismatched.stderr)")

        let swapped = try CLI.run(["serve", "stubs/hal-shop", "--port", "0", "--cert", state.path + "/first-key.pem", "--key", state.path + "/server.pem"])
        #expect(swapped.status == 2)
        #expect(swapped.stderr.contains("first-key.pem: error: no CERTIFICATE block"), "\(swapped.stderr)")

        let half = try CLI.run(["serve", "stubs/hal-shop", "--cert", state.path + "/server.pem"])
        #expect(half.status != 0 && half.stderr.contains("--cert and --key go together"))
        let badCA = try CLI.run(["crawl", "https://127.0.0.1:9/", "--cacert", state.path + "/first-key.pem"])
        #expect(badCA.status == 2 && badCA.stderr.contains("first-key.pem: error: no CERTIFICATE block"), "\(badCA.stderr)")
    }

    @Test func helpShowsTheTLSOptionsWithExamples() throws {
        let serve = try CLI.run(["serve", "--help"])
        for option in ["--tls", "--tls-host", "--tls-dir", "--cert", "--key", "--client-ca", "--http2", "--h2c", "--cacert", "--insecure"] {
            #expect(serve.stdout.contains(option), "serve --help lacks \(option)")
        }
        #expect(serve.stdout.contains("apicheck serve stubs/acmeflix --tls"))
        for command in ["crawl", "verify", "record", "probe"] {
            let help = try CLI.run([command, "--help"])
            #expect(help.stdout.contains("--cacert") && help.stdout.contains("--insecure"), "\(command) --help")
        }
    }
}
