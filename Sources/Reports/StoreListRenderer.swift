import CivilCalendar
import Feeds
import KPI
import OutputText

/// `ddkpi stores list`: the store directory with its opening and closing days (SPEC section 21).
public enum StoreListRenderer {
    /// The formats it writes.
    public static let formats: [ReportFormat] = [.table, .csv, .json]

    /// The directory in `format`; `firstSales` gives, for stores without an `opened` day, the
    /// first sales-audit day that stands in for it (shown as `comparableFrom`). A format outside
    /// `formats` is an error.
    public static func render(_ stores: [StoreRecord], firstSales: [String: CivilDate], format: ReportFormat) throws
        -> String
    {
        let rows = stores.map { store in
            (
                store,
                [
                    store.code, store.name, store.region ?? "", store.status, store.opened?.iso8601 ?? "",
                    store.closed?.iso8601 ?? "", (store.opened ?? firstSales[store.code])?.iso8601 ?? "",
                ]
            )
        }
        switch format {
        case .table, .text:
            var table = TextTable(alignments: [.left, .left, .left, .left, .left, .left, .left], separator: "  ")
            table.add(columns)
            for (_, cells) in rows { table.add(cells) }
            return table.render()
        case .csv:
            return ([columns] + rows.map(\.1)).map { $0.map(CSVText.field).joined(separator: ",") + "\n" }.joined()
        case .json:
            let lines = rows.map { store, cells in
                "{"
                    + zip(jsonKeys, cells).enumerated().map { index, pair in
                        let (key, cell) = pair
                        let value = cell.isEmpty && index != 1 ? "null" : JSONText.quoted(cell)
                        return "\(JSONText.quoted(key)):\(value)"
                    }.joined(separator: ",") + ",\"aliases\":["
                    + store.aliases.map(JSONText.quoted).joined(separator: ",")
                    + "]}"
            }
            return "{\"stores\":[" + lines.map { "\n" + $0 }.joined(separator: ",") + "\n]}\n"
        case .html, .xlsx, .pdf:
            throw KPIError(
                "stores list writes \(formats.map(\.rawValue).joined(separator: ", ")), not \(format.rawValue)")
        }
    }

    private static let columns = ["code", "name", "region", "status", "opened", "closed", "comparable_from"]
    private static let jsonKeys = ["code", "name", "region", "status", "opened", "closed", "comparableFrom"]
}
