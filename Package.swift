// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "APICheck",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "APICheckModel", targets: ["APICheckModel"]),
        .library(name: "APICheckStubFiles", targets: ["APICheckStubFiles"]),
        .library(name: "APICheckTemplates", targets: ["APICheckTemplates"]),
        .library(name: "APICheckResponder", targets: ["APICheckResponder"]),
        .library(name: "APICheckInterceptor", targets: ["APICheckInterceptor"]),
        .library(name: "APICheckTesting", targets: ["APICheckTesting"]),
        .library(name: "APICheckFindings", targets: ["APICheckFindings"]),
        .library(name: "APICheckReportFormats", targets: ["APICheckReportFormats"]),
        .library(name: "APICheckHypermedia", targets: ["APICheckHypermedia"]),
        .library(name: "APICheckServer", targets: ["APICheckServer"]),
        .library(name: "APICheckRecording", targets: ["APICheckRecording"]),
        .executable(name: "apicheck", targets: ["apicheck"]),
    ],
    // An app that adds APICheck for its tests needs the interceptor and the test helpers only:
    // `traits: []` on its `.package` line leaves out everything that needs SwiftNIO,
    // AsyncHTTPClient or ArgumentParser, and SwiftPM then fetches 3 packages instead of 25
    // (README, "Add APICheck to your package").
    // An app whose tests check requests against an OpenAPI document adds `traits: ["OpenAPI"]`:
    // 5 packages (OpenAPIKit and Yams besides), still no NIO.
    traits: [
        .trait(
            name: "CLI",
            description: "The apicheck command, the stub server (APICheckServer) and the live crawl fetcher: SwiftNIO, AsyncHTTPClient, ArgumentParser. Includes OpenAPI.",
            enabledTraits: ["OpenAPI"]
        ),
        .trait(
            name: "OpenAPI",
            description: "OpenAPI documents (APICheckOpenAPI: OpenAPIKit, Yams) in APICheckTesting: `stubs.expectDocumented(by: \"openapi.yaml\")`."
        ),
        .default(enabledTraits: ["CLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Exact: TemplateScanner mirrors this version's parser step for step (TemplateChunkingTests).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // HTTPS and HTTP/2 (serve --tls, --cacert): AsyncHTTPClient already builds both; the local CA
        // is made with swift-certificates on swift-crypto.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.0"),
        // OpenAPI documents (crawl --openapi). Without its ExternalLoading trait, which compiles much
        // more slowly and is not used: external $refs are read by APICheckOpenAPI itself.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0", traits: []),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // C in the package: libxml2 through pkg-config, imported by APICheckXML alone, and one
        // allocator setting for the command-line tool's long runs.
        .target(name: "CAPICheckMalloc"),
        .systemLibrary(
            name: "CAPICheckLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev", "pkg-config"]), .brew(["libxml2"])]
        ),
        .target(name: "APICheckXML", dependencies: ["CAPICheckLibXML2"]),
        .target(name: "APICheckJSON"),
        // JSON Schema (2020-12, 2019-09, draft 7, 6, 4 and OpenAPI 3.0's dialect): compile once into a
        // Sendable validator, validate with basic output, generate instances. Its own ECMA-262 regex
        // engine (linear time) and format checkers; no other dependency.
        .target(name: "APICheckSchema", dependencies: ["APICheckJSON"]),
        .target(name: "APICheckModel", dependencies: ["APICheckJSON"]),
        .target(
            name: "APICheckStubFiles",
            dependencies: [
                "APICheckModel", "APICheckXML", "APICheckJSON", "APICheckTemplates",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "APICheckTemplates",
            dependencies: [
                "APICheckModel", "APICheckJSON",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the interceptor and the server share: stub state, sequences, journal, answering.
        .target(name: "APICheckResponder", dependencies: ["APICheckModel", "APICheckJSON", "APICheckTemplates"]),
        // In-process stubbing for apps and tests: neither NIO nor libxml2 (apps link it).
        .target(
            name: "APICheckInterceptor",
            dependencies: [
                "APICheckModel", "APICheckTemplates", "APICheckResponder", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // XCTest and Swift Testing helpers: loading stub folders, binding sessions, assertions, and
        // recording what passes through to the network (RecordMode) with APICheckRecording.
        .target(
            name: "APICheckTesting",
            dependencies: [
                "APICheckInterceptor", "APICheckResponder", "APICheckStubFiles", "APICheckTemplates", "APICheckModel", "APICheckRecording",
                // `expectDocumented(by:)`: requests against an OpenAPI document (docs/in-process-stubbing.md).
                .target(name: "APICheckOpenAPI", condition: .when(traits: ["OpenAPI"])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Recording: real answers (proxy, crawl, intercepted session) → stub files, secrets replaced,
        // the upstream's origin as {{baseURL}}. No NIO: the test helpers record in-process too.
        .target(
            name: "APICheckRecording",
            dependencies: [
                "APICheckModel", "APICheckJSON", "APICheckXML", "APICheckTemplates", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Records on disk, written append-only and read back in order: what a crawl or a report
        // merge keeps out of memory at scale.
        .target(name: "APICheckSpool"),
        // What a check found: findings, defects, rule ids, severities, checked links and their counts,
        // the crawl report as values. No rendering.
        .target(name: "APICheckFindings", dependencies: ["APICheckModel", "APICheckJSON", "APICheckSpool"]),
        // Every report format (text, JSON v4, JUnit, GitHub, SARIF, Markdown), report files read
        // back, baselines applied, shard reports merged.
        .target(
            name: "APICheckReportFormats", dependencies: ["APICheckFindings", "APICheckModel", "APICheckJSON", "APICheckXML", "APICheckSpool"]
        ),
        // Self-contained HTML reports: a builder whose typed nodes keep crawled text out of markup
        // and script, with a Content-Security-Policy hashed from the page's own inline code.
        .target(
            name: "APICheckHTML",
            dependencies: [.product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["CLI"]))]
        ),
        // `--format html`: the report as one self-contained page with the API's map, built with
        // APICheckHTML. Only the command-line tool renders it (APICheckHTML hashes with swift-crypto).
        .target(name: "APICheckHTMLReport", dependencies: ["APICheckHTML", "APICheckFindings", "APICheckJSON", "APICheckReportFormats"]),
        // What a hypermedia response says: links of every format, media types, URI templates. Shared
        // by the crawler, lint, the verifier and the recorder's tools.
        .target(name: "APICheckHypermedia", dependencies: ["APICheckModel", "APICheckJSON", "APICheckXML"]),
        // The crawl engine: frontier, rules, profiles, the fetcher seam and the in-memory stub-set
        // fetcher. No sockets.
        .target(
            name: "APICheckCrawler",
            dependencies: [
                "APICheckModel", "APICheckJSON", "APICheckResponder", "APICheckFindings", "APICheckSpool", "APICheckHypermedia", "APICheckSchema",
                "APICheckTemplates", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Drift: replay a stub set's requests against a live API and compare its answers.
        .target(
            name: "APICheckVerifier",
            dependencies: [
                "APICheckCrawler", "APICheckHypermedia", "APICheckFindings", "APICheckModel", "APICheckJSON", "APICheckResponder",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // apicheck probe: the write and templated-read affordances a crawl found, generated
        // requests against them (valid first, then edge cases), the probe-* oracles, shrinking.
        .target(
            name: "APICheckProbe",
            dependencies: [
                "APICheckCrawler", "APICheckFindings", "APICheckHypermedia", "APICheckJSON", "APICheckModel", "APICheckSchema",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // OpenAPI 3.0/3.1/3.2 documents read (OpenAPIKit, Yams; located errors, bounded) and every
        // crawl answer checked against them: the openapi-* rules. Bodies validate against the raw
        // schema JSON with APICheckSchema. Only with the OpenAPI trait (which CLI includes).
        .target(
            name: "APICheckOpenAPI",
            dependencies: [
                "APICheckCrawler", "APICheckFindings", "APICheckHypermedia", "APICheckJSON", "APICheckSchema", "APICheckModel", "APICheckResponder",
                .product(name: "OpenAPIKit", package: "OpenAPIKit", condition: .when(traits: ["OpenAPI"])),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit", condition: .when(traits: ["OpenAPI"])),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit", condition: .when(traits: ["OpenAPI"])),
                .product(name: "Yams", package: "Yams", condition: .when(traits: ["OpenAPI"])),
            ]
        ),
        // TLS identities: a local CA and server certificates made with swift-certificates (kept in a
        // folder, issued again when needed), PEM chains and keys read and checked, the client's trust
        // (--cacert, --insecure) and why a server's certificate was refused.
        .target(
            name: "APICheckTLS",
            dependencies: [
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["CLI"])),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["CLI"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["CLI"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["CLI"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["CLI"])),
            ]
        ),
        // The live fetcher: AsyncHTTPClient, kept apart so the engine and its tests need no HTTP stack.
        .target(
            name: "APICheckHTTPFetcher",
            dependencies: [
                "APICheckCrawler", "APICheckModel", "APICheckTLS",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["CLI"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["CLI"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The stub server: SwiftNIO HTTP/1.1 directly (no framework), HTTPS and HTTP/2 (ALPN, h2c),
        // hot reload, admin API and the live page.
        .target(
            name: "APICheckServer",
            dependencies: [
                "APICheckModel", "APICheckJSON", "APICheckStubFiles", "APICheckResponder", "APICheckTLS", "APICheckHTML",
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["CLI"])),
                .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(traits: ["CLI"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["CLI"])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "apicheck",
            dependencies: [
                "APICheckModel", "APICheckStubFiles", "APICheckJSON", "APICheckTemplates", "APICheckCrawler", "APICheckHTTPFetcher",
                "APICheckFindings", "APICheckReportFormats", "APICheckHTMLReport", "APICheckSpool", "APICheckHypermedia", "APICheckVerifier", "APICheckServer", "APICheckRecording", "APICheckSchema", "APICheckOpenAPI", "APICheckProbe", "APICheckTLS", "CAPICheckMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CLI"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["CLI"])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "apicheck-bench",
            dependencies: [
                "APICheckModel", "APICheckStubFiles", "APICheckXML", "APICheckInterceptor", "APICheckCrawler", "APICheckHTTPFetcher",
                "APICheckHypermedia", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(traits: ["CLI"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["CLI"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["CLI"])),
            ]
        ),
        // libFuzzer targets for every parser of untrusted input (scripts/fuzz builds them with
        // -sanitize=fuzzer,address -DFUZZING); built plainly, it replays saved inputs (CI, crashes).
        .executableTarget(
            name: "apicheck-fuzz",
            dependencies: [
                "APICheckModel", "APICheckJSON", "APICheckStubFiles", "APICheckTemplates", "APICheckCrawler", "APICheckServer", "APICheckSchema",
                "APICheckHypermedia", "APICheckOpenAPI", "APICheckProbe", "APICheckFindings", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["CLI"])),
            ]
        ),
        .testTarget(
            name: "TransportParityTests",
            dependencies: [
                "APICheckInterceptor", "APICheckServer", "APICheckCrawler", "APICheckHypermedia", "APICheckFindings", "APICheckReportFormats",
                "APICheckSpool", "APICheckModel", "APICheckJSON", "APICheckStubFiles",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "APICheckRecordingTests",
            dependencies: ["APICheckRecording", "APICheckStubFiles", "APICheckResponder", "APICheckModel", "APICheckJSON", "APICheckXML"]
        ),
        .testTarget(name: "APICheckXMLTests", dependencies: ["APICheckXML", "CAPICheckLibXML2"]),
        .testTarget(name: "APICheckTLSTests", dependencies: ["APICheckTLS", .product(name: "X509", package: "swift-certificates")]),
        .testTarget(
            name: "APICheckHTMLTests",
            dependencies: ["APICheckHTML", "APICheckHTMLReport", "APICheckFindings", "APICheckJSON", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(name: "APICheckJSONTests", dependencies: ["APICheckJSON"]),
        .testTarget(
            name: "APICheckSchemaTests", dependencies: ["APICheckSchema", "APICheckJSON"],
            // The official JSON-Schema-Test-Suite (vendored with its license), read by path.
            exclude: ["Suite"]
        ),
        .testTarget(name: "APICheckModelTests", dependencies: ["APICheckModel"]),
        .testTarget(
            name: "APICheckOpenAPITests",
            dependencies: ["APICheckOpenAPI", "APICheckCrawler", "APICheckFindings", "APICheckModel", "APICheckStubFiles", "APICheckJSON", "APICheckSchema", "APICheckResponder"]
        ),
        .testTarget(
            name: "APICheckStubFilesTests",
            dependencies: ["APICheckStubFiles", "APICheckModel"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "APICheckCLITests", dependencies: ["APICheckJSON", "APICheckFindings", "APICheckReportFormats", "APICheckSpool", "APICheckXML"],
            // The independent upstream the recording tests start with python3, by path.
            exclude: ["Upstream"]
        ),
        .testTarget(
            name: "APICheckProbeTests",
            dependencies: ["APICheckProbe", "APICheckCrawler", "APICheckFindings", "APICheckHypermedia", "APICheckJSON", "APICheckSchema"]
        ),
        .testTarget(
            name: "APICheckReportTests",
            dependencies: ["APICheckFindings", "APICheckReportFormats", "APICheckSpool", "APICheckModel", "APICheckJSON", "APICheckXML"]
        ),
        .testTarget(
            name: "APICheckCrawlerTests",
            dependencies: [
                "APICheckCrawler", "APICheckHypermedia", "APICheckVerifier", "APICheckModel", "APICheckJSON", "APICheckStubFiles",
                "APICheckFindings", "APICheckReportFormats", "APICheckSpool", "APICheckResponder", "APICheckSchema", "APICheckXML",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "APICheckServerTests",
            dependencies: [
                "APICheckServer", "APICheckModel", "APICheckStubFiles", "APICheckJSON", "APICheckTLS",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "APICheckTemplatesTests",
            dependencies: ["APICheckTemplates", "APICheckModel", .product(name: "Mustache", package: "swift-mustache")]
        ),
        .testTarget(
            name: "APICheckInterceptorTests",
            dependencies: [
                "APICheckInterceptor", "APICheckResponder", "APICheckTesting", "APICheckModel", "APICheckStubFiles",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")]
        ),
        // The worked example: a hypermedia client tested entirely with stubs/acmeflix.
        .target(name: "AcmeFlixClient", path: "Examples/AcmeFlixClient/Sources/AcmeFlixClient"),
        .testTarget(
            name: "AcmeFlixClientTests",
            dependencies: ["AcmeFlixClient", "APICheckTesting", "APICheckInterceptor", "APICheckModel"],
            path: "Examples/AcmeFlixClient/Tests/AcmeFlixClientTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
