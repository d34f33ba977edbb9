import APICheckModel
import APICheckStubFiles
import Testing

/// A stub set's `apicheck.json` and `schemas/` are its contract, not stub files.
@Suite struct StubSetConfigurationTests {
    @Test func theLoaderSkipsTheConfigurationAndTheSchemaFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("root.xml", Fixtures.stub(xml: "<body>{}</body>"))
        try folder.write("apicheck.json", #"{"profiles": {"application/vnd.x+json": "schemas/x.json"}}"#)
        try folder.write("schemas/x.json", #"{"type": "object"}"#)
        try folder.write("nested/schemas/y.json", #"{"not": "a stub"}"#)
        try folder.write("api/apicheck.json", #"{"profiles": {}}"#)
        try folder.write("api/schemas/z.json", #"{"type": "object"}"#)
        try folder.write("api/item.xml", Fixtures.stub(xml: "<body>{}</body>"))
        let loaded = StubLoader().load([folder.path])
        #expect(loaded.files.map(\.path) == [folder.path + "/api/item.xml", folder.path + "/nested/schemas/y.json", folder.path + "/root.xml"])
        // Only the schemas/ beside an apicheck.json is reserved: another folder of that name holds stub files.
        #expect(loaded.errors.count == 1)
        #expect(loaded.errors.first?.location.path == folder.path + "/nested/schemas/y.json")
        #expect(StubSetConfiguration.folders(under: folder.path) == [folder.path, folder.path + "/api"])
    }

    @Test func profilesAreReadWithTheirLocations() throws {
        let folder = try TemporaryFolder()
        try folder.write("apicheck.json", "{\n  \"profiles\": {\n    \"application/vnd.x+json\": \"schemas/x.json\"\n  }\n}")
        let (configuration, diagnostics) = try #require(StubSetConfiguration.load(folder: folder.path))
        #expect(diagnostics.isEmpty)
        #expect(configuration.profiles == [
            StubSetConfiguration.ProfileEntry(
                key: "application/vnd.x+json", path: "schemas/x.json", location: SourceLocation(path: folder.path + "/apicheck.json", line: 3, column: 31))
        ])
    }

    @Test func badConfigurationsAreLocatedAndTheGoodEntriesStay() throws {
        let text = "{\n  \"profile\": {},\n  \"profiles\": {\"a/b\": 3, \"c/d\": \"d.json\"}\n}"
        let (configuration, diagnostics) = StubSetConfiguration.parse(Array(text.utf8), path: "apicheck.json", folder: ".")
        #expect(configuration.profiles.map(\.key) == ["c/d"])
        #expect(diagnostics.map(\.description) == [
            "apicheck.json:2:3: warning: unknown key \"profile\" (known: profiles)",
            "apicheck.json:3:23: error: the profile of \"a/b\" must be a schema file path (a string), found a number",
        ])
        let (_, broken) = StubSetConfiguration.parse(Array("{\"profiles\": [}".utf8), path: "apicheck.json", folder: ".")
        #expect(broken.first?.description.hasPrefix("apicheck.json:1:15: error: not valid JSON") == true)
        #expect(StubSetConfiguration.load(folder: try TemporaryFolder().path) == nil)
    }
}
