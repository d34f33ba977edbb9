// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "APICheck",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "APICheckModel", targets: ["APICheckModel"]),
        .library(name: "APICheckStubFiles", targets: ["APICheckStubFiles"]),
        .executable(name: "apicheck", targets: ["apicheck"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // The only C in the package: libxml2 through pkg-config, imported by APICheckXML alone.
        .systemLibrary(
            name: "CAPICheckLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev", "pkg-config"]), .brew(["libxml2"])]
        ),
        .target(name: "APICheckXML", dependencies: ["CAPICheckLibXML2"]),
        .target(name: "APICheckJSON"),
        .target(name: "APICheckModel", dependencies: ["APICheckJSON"]),
        .target(
            name: "APICheckStubFiles",
            dependencies: [
                "APICheckModel", "APICheckXML", "APICheckJSON",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "apicheck",
            dependencies: [
                "APICheckModel", "APICheckStubFiles", "APICheckJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "apicheck-bench",
            dependencies: ["APICheckModel", "APICheckStubFiles", "APICheckXML"]
        ),
        .testTarget(name: "APICheckXMLTests", dependencies: ["APICheckXML"]),
        .testTarget(name: "APICheckJSONTests", dependencies: ["APICheckJSON"]),
        .testTarget(name: "APICheckModelTests", dependencies: ["APICheckModel"]),
        .testTarget(
            name: "APICheckStubFilesTests",
            dependencies: ["APICheckStubFiles", "APICheckModel"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "APICheckCLITests", dependencies: ["APICheckJSON"]),
    ],
    swiftLanguageModes: [.v6]
)
