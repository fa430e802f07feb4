import OutputText

/// The JSON of SPEC section 18, written once for `check --format json` and for the
/// `FILE.alarms.json` beside a held file: `{"asOf","alarms":[{"kind","feed","store","date"|
/// "start"+"end","metric","value","expected","score","run","file"}]}`.
public enum AlarmJSON {
    /// The whole document, one alarm per line.
    public static func document(asOf: String, alarms: [Alarm]) -> String {
        let lines = alarms.map(object)
        return "{\"asOf\":\(JSONText.quoted(asOf)),\"alarms\":["
            + (lines.isEmpty ? "" : "\n" + lines.joined(separator: ",\n") + "\n") + "]}\n"
    }

    /// One alarm as a JSON object on one line.
    public static func object(_ alarm: Alarm) -> String {
        var fields = [
            ("kind", JSONText.quoted(alarm.kind.rawValue)), ("feed", JSONText.quoted(alarm.feed.rawValue)),
            ("store", JSONText.quoted(alarm.store)),
        ]
        if alarm.kind.isSpan {
            fields += [
                ("start", JSONText.quoted(alarm.days.start.iso8601)), ("end", JSONText.quoted(alarm.days.end.iso8601)),
            ]
        } else {
            fields.append(("date", JSONText.quoted(alarm.days.start.iso8601)))
        }
        fields += [
            ("metric", JSONText.quoted(alarm.metric)), ("value", number(alarm.value)),
            ("expected", number(alarm.expected)), ("score", number(alarm.score)),
            ("run", alarm.run.map(String.init) ?? "null"), ("file", alarm.file.map(JSONText.quoted) ?? "null"),
        ]
        return "{" + fields.map { "\(JSONText.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A JSON number rounded to hundredths (cents for money), without trailing zeros; `null` for none.
    public static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        let hundredths = (value * 100).rounded()
        guard hundredths.magnitude < 9e15 else { return String(value) }
        let whole = Int64(hundredths)
        let sign = whole < 0 ? "-" : ""
        let units = whole.magnitude / 100
        let cents = whole.magnitude % 100
        if cents == 0 { return "\(sign)\(units)" }
        let decimals = cents % 10 == 0 ? "\(cents / 10)" : (cents < 10 ? "0\(cents)" : "\(cents)")
        return "\(sign)\(units).\(decimals)"
    }
}
