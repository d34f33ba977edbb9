import APICheckModel
import ArgumentParser

/// Mistyped command lines, named as such.
///
/// ArgumentParser runs a command's `validate()` before it reports arguments it did not use, so a
/// mistyped option that takes a value (`lint --formt json stubs`) came out as "'json': no such file
/// or folder", and a mistyped command (`apicheck lnt`) as an unexpected argument. When parsing
/// fails, ``diagnose(_:)`` looks for those first. The options a command knows are read from its
/// help screen (public API), so they cannot drift from what the parser accepts.
enum ArgumentTypos {
    /// A typo found in `arguments` (without the program name): the message and the command whose
    /// usage to show, or `nil` when every command and option is known.
    static func diagnose(_ arguments: [String]) -> (message: String, command: ParsableCommand.Type)? {
        var command: ParsableCommand.Type = APICheckCommand.self
        var positionals = 0
        for argument in arguments {
            if argument == "--" { break }
            if argument.hasPrefix("-") {
                if let message = unknownOption(argument, of: command) { return (message, command) }
                continue
            }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, positionals == 0 else {
                positionals += 1
                continue
            }
            if let next = subcommands.first(where: { name(of: $0) == argument }) {
                command = next
                continue
            }
            let names = subcommands.map(name(of:))
            let suggestion = Suggestion.closest(to: argument, in: names).map { " Did you mean '\($0)'?" } ?? ""
            return ("Unknown command '\(argument)'.\(suggestion) Commands: \(names.joined(separator: ", ")).", command)
        }
        return nil
    }

    private static func name(of command: ParsableCommand.Type) -> String {
        command.configuration.commandName ?? command._commandName
    }

    /// `--formt` → `Unknown option '--formt'. Did you mean '--format'?`; values (`-1`, `-`) and
    /// known options pass.
    private static func unknownOption(_ argument: String, of command: ParsableCommand.Type) -> String? {
        let option = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        guard option.count > 1, option.dropFirst(option.hasPrefix("--") ? 2 : 1).first?.isLetter == true else { return nil }
        let known = knownOptions(of: command)
        if option.hasPrefix("--") {
            guard !known.contains(option) else { return nil }
        } else {
            // A cluster of short flags (`-vq`): each letter must be known.
            guard option.dropFirst().contains(where: { !known.contains("-\($0)") }) else { return nil }
        }
        let suggestion = Suggestion.closest(to: option, in: known.filter { $0.hasPrefix("--") }).map { " Did you mean '\($0)'?" } ?? ""
        return "Unknown option '\(option)'.\(suggestion)"
    }

    /// Every `--name` and `-x` the command's help screen (hidden options included) names.
    private static func knownOptions(of command: ParsableCommand.Type) -> Set<String> {
        let help = APICheckCommand.helpMessage(for: command, includeHidden: true, columns: 10_000)
        var names: Set<String> = ["--help", "-h", "--version"]
        var current = ""
        func flush() {
            let trimmed = String(current.reversed().drop { !$0.isLetter && !$0.isNumber }.reversed())
            if trimmed.hasPrefix("--") ? trimmed.count > 2 : trimmed.count == 2 { names.insert(trimmed) }
            current = ""
        }
        var previous: Character = " "
        for character in help {
            if current.isEmpty {
                if character == "-", previous == " " || previous == "[" || previous == "," || previous == "/" || previous == "(" {
                    current.append(character)
                }
            } else if character.isLetter || character.isNumber || character == "-" {
                current.append(character)
            } else {
                flush()
            }
            previous = character
        }
        flush()
        return names
    }
}
