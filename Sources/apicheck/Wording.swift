/// `1 stub`, `2 stubs`, `0 errors`: a count with its noun in the right number (English plurals
/// of the nouns the CLI uses all take an `s`).
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
