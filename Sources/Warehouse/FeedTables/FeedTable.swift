import Feeds

/// How a feed table's rows are placed in time, which names its date column.
enum FeedTablePeriod: Sendable {
    /// One row per store-day, keyed by `date`.
    case day
    /// One row per store-week, keyed by `week_start`, with the seven days' counts when known.
    case week
    /// One row per day (`date` = `YYYY-MM-DD`) or per whole month (`date` = `YYYY-MM`), a
    /// `grain` column saying which (SPEC section 9).
    case dayOrMonth

    /// The key column that places a row in time.
    var dateColumn: String { self == .week ? "week_start" : "date" }

    /// Days a row covers after its date column's day (a week: 6; a month row's own month end
    /// is read from its key).
    var daysAfterKey: Int { self == .week ? 6 : 0 }

    /// How often a feed of this table is expected to send rows (SPEC section 15).
    var cadence: FeedCadence { self == .week ? .weekly : .daily }
}

/// How often a feed is expected to send rows (SPEC section 15).
public enum FeedCadence: Sendable {
    case daily, weekly
}

/// A feed table, declared once: its name, dedup key, value columns, how rows are placed in
/// time, and how a record binds to a row. The upsert (and PostgreSQL's staging `COPY`), the
/// measures and rollups, freshness and the schema check read it from here.
///
/// Every feed table also has its provenance after its declared columns (SPEC section 16):
/// `ingest_run_id`, the run that last changed the row, and `source_row`, the 1-based sheet row
/// or CSV record it was read from (the run's ledger row names the file and sheet). Its primary key is `key` in the order given (the date column first, so a
/// day's file appends at the end of the B-tree).
struct FeedTable<Record>: FeedTableDescription {
    let feed: FeedID
    let name: String
    let period: FeedTablePeriod
    /// The dedup key, in primary-key order.
    let key: [FeedColumn<Record>]
    /// Columns whose change makes an upsert an update.
    let values: [FeedColumn<Record>]
    /// Columns written with the row whose change alone leaves it unchanged (besides `ingest_run_id`).
    let untracked: [FeedColumn<Record>]
    /// What the rows add to the KPI measures, if anything.
    let measures: FeedMeasures?
    /// The upsert of a row, in the column order `bind` gives values.
    let upsert: UpsertStatement
    /// Every declared column in binding order: key, values, untracked.
    private let columns: [FeedColumn<Record>]
    /// The columns' binds in that order, composed into one closure once: a row's bind calls it
    /// instead of walking `columns`, which retained and released each column's name and closure
    /// on every row.
    private let bindColumns: (Record, inout PendingValues) -> Void

    init(
        feed: FeedID, name: String, period: FeedTablePeriod, key: [FeedColumn<Record>], values: [FeedColumn<Record>],
        untracked: [FeedColumn<Record>] = [], measures: FeedMeasures? = nil
    ) {
        self.feed = feed
        self.name = name
        self.period = period
        self.key = key
        self.values = values
        self.untracked = untracked
        self.measures = measures
        columns = key + values + untracked
        let bindNone: (Record, inout PendingValues) -> Void = { _, _ in }
        bindColumns = columns.reduce(bindNone) { bindBefore, column in
            let bind = column.bind
            return { record, values in
                bindBefore(record, &values)
                bind(record, &values)
            }
        }
        upsert = UpsertStatement(
            table: name, key: key.map(\.name), values: values.map(\.name),
            untracked: untracked.map(\.name) + Self.provenanceColumns, referencesStore: true)
    }

    /// The columns every feed table has for a row's provenance: the run that last changed it,
    /// and the source row it was read from.
    static var provenanceColumns: [String] { [HistoryTable.runColumn, HistoryTable.sourceRowColumn] }

    /// Appends a record's row (every column, then the run and the source row) to `values`.
    @inline(__always)
    func bind(_ record: Record, runID: Int64, sourceRow: Int, into values: inout PendingValues) {
        bindColumns(record, &values)
        Self.bindProvenance(runID: runID, sourceRow: sourceRow, into: &values)
    }

    /// Appends the provenance columns: the run, then the source row.
    @inline(__always)
    static func bindProvenance(runID: Int64, sourceRow: Int, into values: inout PendingValues) {
        values.add(runID)
        values.add(sourceRow)
    }

    var keyColumnNames: [String] { key.map(\.name) }

    func columnDefinitions(_ backend: BackendKind) -> [(name: String, definition: String)] {
        columns.map { ($0.name, $0.definition(backend)) }
            + Self.provenanceColumns.map { ($0, "\($0) \(ColumnType.integer.sql(backend))") }
    }
}

/// A record that appends its feed table's declared columns itself, in the declaration's order,
/// rather than through the declaration's closure per column: for the table of the largest
/// files, where those closures (a dozen nested calls and their reabstraction thunks a row) were
/// a tenth of the writing thread's instructions (docs/decisions.md#measured-reasons-behind-the-code).
/// The declaration stays what the schema, the upsert and `bind` are made of;
/// `FeedTableSchemaTests` requires `bindDirectly` to give exactly what `bind` gives.
protocol DirectRowBinding {
    /// Appends the declared columns (key, values, untracked; not the provenance) in order.
    func bindDeclaredColumns(into values: inout PendingValues)
}

extension FeedTable where Record: DirectRowBinding {
    /// `bind`, through the record's own `bindDeclaredColumns`.
    @inline(__always)
    func bindDirectly(_ record: Record, runID: Int64, sourceRow: Int, into values: inout PendingValues) {
        record.bindDeclaredColumns(into: &values)
        Self.bindProvenance(runID: runID, sourceRow: sourceRow, into: &values)
    }
}

/// What every feed table says of itself, whatever its record type: for the code that walks
/// all of them (freshness, rollup recomputation, the schema check).
protocol FeedTableDescription {
    var feed: FeedID { get }
    var name: String { get }
    var period: FeedTablePeriod { get }
    /// What the rows add to the KPI measures, if anything.
    var measures: FeedMeasures? { get }
    /// The dedup key's columns, in primary-key order.
    var keyColumnNames: [String] { get }
    /// Each column's name and its definition for `backend` (as `ALTER TABLE … ADD COLUMN`
    /// takes it), the key first and the provenance columns last.
    func columnDefinitions(_ backend: BackendKind) -> [(name: String, definition: String)]
}

extension FeedTableDescription {
    /// Whether the table declares a column of that name (a `grain`, the sales audit's `closed`).
    func declares(_ column: String) -> Bool { columnDefinitions(.sqlite).contains { $0.name == column } }

    /// `CREATE TABLE` for the table as declared (named `name` unless another is given), which
    /// the schema test compares with what the migrations built; a migration writes its DDL out
    /// instead, since a declaration grows and a shipped step must not. The dedup key is the
    /// primary key, `WITHOUT ROWID` on SQLite.
    func createTableSQL(_ backend: BackendKind, named tableName: String? = nil) -> String {
        let body =
            columnDefinitions(backend).map(\.definition) + ["PRIMARY KEY (\(keyColumnNames.joined(separator: ", ")))"]
        return
            "CREATE TABLE \(tableName ?? name) (\n    \(body.joined(separator: ",\n    "))\n)\(backend == .sqlite ? " WITHOUT ROWID" : "");"
    }
}
