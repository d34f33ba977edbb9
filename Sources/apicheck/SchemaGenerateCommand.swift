import APICheckCrawler
import APICheckHypermedia
import APICheckJSON
import APICheckSchema
import APICheckVerifier
import ArgumentParser
import Foundation

struct SchemaGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write instances of a schema, valid or breaking one keyword, the same ones for the same seed.",
        discussion: """
            Valid instances come first from the schema's own examples, defaults, const and enum \
            values, then generated ones; every one is checked against the schema before it is \
            written. With --violate POINTER, each instance breaks exactly that keyword and \
            satisfies the rest (--list-violable names the keywords that can be broken). One \
            compact JSON value per line.

            Exit status: 0 written, 2 the schema cannot be read or cannot be satisfied (the \
            error names the keyword).

            Examples:
              apicheck schema generate schemas/movie.json --count 5 --seed 7
              apicheck schema generate schemas/movie.json --list-violable
              apicheck schema generate schemas/movie.json --violate /properties/year/type
            """
    )

    @OptionGroup var reading: SchemaReading

    @Option(help: "How many instances.")
    var count = 1

    @Option(help: "The seed: the same seed, schema and options give the same instances.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Break this keyword (a JSON pointer into the schema, e.g. /properties/year/type).", valueName: "pointer"))
    var violate: String?

    @Flag(help: "List the keywords --violate can break, one pointer per line.")
    var listViolable = false

    func validate() throws {
        guard (1...100_000).contains(count) else { throw ValidationError("--count must be between 1 and 100000.") }
    }

    func run() throws {
        let errors = Output(fileDescriptor: STDERR_FILENO)
        let generator: JSONSchemaGenerator
        switch ProfileLoader(options: reading.options).schemaDocument(at: reading.schema) {
        case .failure(let problem):
            errors.writeError(errors.format(problem.diagnostic))
            throw ExitCode(2)
        case .success(let (document, baseURI, registry)):
            do {
                generator = try JSONSchemaGenerator(schema: document, baseURI: baseURI, registry: registry, options: reading.options)
            } catch {
                errors.writeError("\(reading.schema): error: \(error.message); 'apicheck schema lint \(reading.schema)' lists every problem")
                throw ExitCode(2)
            }
        }
        let output = Output()
        if listViolable {
            for pointer in generator.violableKeywords() { output.write(pointer) }
            return
        }
        do throws(JSONSchemaGenerationError) {
            if let violate {
                for index in 0..<count {
                    output.write(JSONWriter().string(try generator.invalidInstance(violating: violate, seed: seed &+ UInt64(index))))
                }
            } else if count == 1 {
                output.write(JSONWriter().string(try generator.validInstance(seed: seed)))
            } else {
                let instances = generator.validInstances(count: count, seed: seed)
                // None at all: ask for one, whose error says which keyword cannot be satisfied.
                if instances.isEmpty { _ = try generator.validInstance(seed: seed) }
                for instance in instances { output.write(JSONWriter().string(instance)) }
            }
        } catch {
            errors.writeError("\(reading.schema): error: \(error)")
            throw ExitCode(2)
        }
    }
}
