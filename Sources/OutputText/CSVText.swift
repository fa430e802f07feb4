/// CSV field quoting (RFC 4180).
public enum CSVText {
    /// One CSV field, quoted only when it holds a comma, quote, CR or LF (RFC 4180).
    public static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return text }
        var quoted = "\""
        for character in text {
            quoted.append(character)
            if character == "\"" { quoted.append("\"") }
        }
        return quoted + "\""
    }
}
