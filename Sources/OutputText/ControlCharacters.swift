/// Control characters made visible, so that text from files, cells and servers stays on its one
/// line and never drives a terminal (SPEC section 15: every message is one line).
///
/// For people reading messages, status lines and text reports, not for data (`dump`, CSV and
/// JSON quote by their own rules): the escapes are not reversible (a backslash stays as is).
public enum ControlCharacters {
    /// `text` with `\n`, `\r` and `\t` written as those two characters, and every other C0
    /// control (NUL, ESC, …), DEL and C1 control (U+0080–U+009F) as `\xHH`.
    public static func escaped(_ text: String) -> String {
        // A control is a byte below 0x20, DEL, or (C1) a scalar encoded after a 0xC2 byte.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }),
            text.unicodeScalars.contains(where: isControl)
        else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar):
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count < 2 ? "0" : "") + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `scalar` is a C0 control, DEL or a C1 control.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
