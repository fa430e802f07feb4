/// A table whose rows carry the run that last changed them and keep their earlier values in
/// history (SPEC section 16): the seven feed tables, the `employee` and `vendor` names associate
/// and merch files write beside them, and the reference tables `goal` and `store` (a store's aliases are kept apart,
/// in `store_alias_history`, since an import replaces them rather than updating them).
///
/// `<name>_history` holds a row's previous values (every column of the table) and
/// `replaced_by_run`, the run whose update replaced them. A trigger writes it, in the updating
/// statement's transaction, whenever a later run changes a row: an insert writes no history,
/// and neither does an unchanged row (the upsert leaves it untouched) nor a row a run writes
/// twice (a key repeated in one file). An undo puts earlier runs back, which never triggers it.
struct HistoryTable: Sendable {
    /// The table's name; its history is `<name>_history`.
    let name: String
    /// The columns that identify a row.
    let key: [String]
    /// Every other column a run writes (the run and source position included).
    let values: [String]
    /// How the table's rows are placed in time, when they are (feed tables).
    let period: FeedTablePeriod?

    /// The history table's name.
    var history: String { "\(name)_history" }

    /// The columns that hold the row's data: `values` but the run and the source row.
    var dataColumns: [String] { values.filter { $0 != Self.runColumn && $0 != Self.sourceRowColumn } }

    /// The column every history table adds: the run whose update replaced the values.
    static let replacedByColumn = "replaced_by_run"
    /// The run that last changed a row.
    static let runColumn = "ingest_run_id"
    /// The 1-based sheet row or CSV record a row was read from.
    static let sourceRowColumn = "source_row"

    /// The history tables: every feed table, then `employee`, `goal`, `store` and `vendor`.
    static let all: [HistoryTable] =
        FeedTables.all.map { table in
            let key = table.keyColumnNames
            let values = table.columnDefinitions(.sqlite).map(\.name).filter { !key.contains($0) }
            return HistoryTable(name: table.name, key: key, values: values, period: table.period)
        } + [
            HistoryTable(
                name: "employee", key: ["employee_id"], values: ["name", "name_as_of", runColumn, sourceRowColumn],
                period: nil),
            HistoryTable(
                name: "goal", key: ["period", "scope", "metric", "date"],
                values: ["target", runColumn, sourceRowColumn],
                period: nil),
            HistoryTable(
                name: "store", key: ["code"],
                values: ["name", "region", "status"] + V09StoreDates.columns + [runColumn, sourceRowColumn],
                period: nil),
            HistoryTable(
                name: "vendor", key: ["vendor_key"], values: ["name", "name_as_of", runColumn, sourceRowColumn],
                period: nil),
        ]

    /// The history table of `name`.
    static func named(_ name: String) -> HistoryTable? { all.first { $0.name == name } }

    /// `table.column = other.column` for every key column.
    func keyMatch(_ table: String, _ other: String) -> String {
        key.map { "\(table).\($0) = \(other).\($0)" }.joined(separator: " AND ")
    }
}
