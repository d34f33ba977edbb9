import Foundation
import Testing

/// An app that adds APICheck for its tests, as a new user does (Tests/ConsumerPackage): with
/// `traits: []` it fetches only what the interceptor and test helpers need, and its tests, which
/// use APICheckTesting alone, build and pass.
///
/// The dependency is a `file://` URL on a tagged clone of this repository's HEAD (a `path:`
/// dependency would not show what a URL dependency fetches); uncommitted changes are not in it.
@Suite struct ConsumerPackageTests {
    private struct Run {
        var status: Int32
        var output: String
    }

    private func run(_ arguments: [String], in directory: URL) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    /// A consumer of a tagged clone of this repository's HEAD in a scratch folder (removed by the
    /// caller), its `Package.swift` naming the traits it asks for.
    private func makeConsumer(traits: String) throws -> (folder: URL, consumer: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apicheck-consumer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clone = folder.appendingPathComponent("apicheck")
        #expect(try run(["git", "clone", "--quiet", CLI.repository.path, clone.path], in: folder).status == 0)
        #expect(try run(["git", "tag", "99.0.0"], in: clone).status == 0)

        let consumer = folder.appendingPathComponent("consumer")
        try FileManager.default.copyItem(at: CLI.repository.appendingPathComponent("Tests/ConsumerPackage"), to: consumer)
        try Data("""
            // swift-tools-version:6.1
            import PackageDescription

            let package = Package(
                name: "Gists",
                platforms: [.macOS(.v15), .iOS(.v18)],
                dependencies: [.package(url: "\(clone.absoluteString)", from: "99.0.0", traits: \(traits))],
                targets: [
                    .target(name: "Gists"),
                    .testTarget(name: "GistsTests", dependencies: ["Gists", .product(name: "APICheckTesting", package: "apicheck")]),
                ]
            )

            """.utf8).write(to: consumer.appendingPathComponent("Package.swift"))
        return (folder, consumer)
    }

    private func fetched(_ consumer: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: consumer.appendingPathComponent(".build/checkouts").path).sorted()
    }

    @Test func anAppResolvesThreePackagesAndItsStubbedTestsPass() throws {
        let (folder, consumer) = try makeConsumer(traits: "[]")
        defer { try? FileManager.default.removeItem(at: folder) }

        let resolve = try run(["swift", "package", "resolve"], in: consumer)
        #expect(resolve.status == 0, "\(resolve.output)")
        #expect(try fetched(consumer) == ["apicheck", "swift-log", "swift-mustache"], "no NIO, no crypto, no OpenAPIKit")

        let test = try run(["swift", "test"], in: consumer)
        #expect(test.status == 0, "\(test.output)")
        #expect(test.output.contains("Test run with 4 tests"), "\(test.output)")
    }

    /// With the `OpenAPI` trait (`expectDocumented(by:)`), OpenAPIKit and Yams come too, and still
    /// no NIO. Resolved only: building OpenAPIKit again here would add minutes for what
    /// ExpectDocumentedTests already runs in this package.
    @Test func withTheOpenAPITraitAnAppResolvesFivePackages() throws {
        let (folder, consumer) = try makeConsumer(traits: #"["OpenAPI"]"#)
        defer { try? FileManager.default.removeItem(at: folder) }

        let resolve = try run(["swift", "package", "resolve"], in: consumer)
        #expect(resolve.status == 0, "\(resolve.output)")
        #expect(try fetched(consumer) == ["OpenAPIKit", "Yams", "apicheck", "swift-log", "swift-mustache"], "no NIO, no crypto")
    }
}
