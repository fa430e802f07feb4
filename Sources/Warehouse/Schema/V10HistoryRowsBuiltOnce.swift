import GRDB

/// Migration "v10: history rows built once each" (SPEC section 16), PostgreSQL's alone: the
/// functions of the history triggers (`<table>_history_keep`, which "v6: provenance and
/// history" and "v7: vendor names" created) build each replaced row once. Their first form
/// selected `(jsonb_populate_record(…)).*`, which PostgreSQL evaluates once per column
/// (docs/decisions.md#history-rows-built-once-each). The rows they write are the same, still
/// copied by column name.
///
/// SQLite's triggers name their columns and build nothing: its step changes nothing, and is
/// there so both backends record the same steps.
enum V10HistoryRowsBuiltOnce: SchemaMigration {
    static let name = "v10: history rows built once each"

    /// The tables with history when this step shipped (a list of its own, not `HistoryTable.all`,
    /// so that the step stays what it was when a later one adds a table).
    static let tables = [
        "store_report", "credit_report", "birdeye_report", "crm_intake_report", "outbound_call_report",
        "employee_report", "merch_report", "employee", "goal", "store", "vendor",
    ]

    static func sqlite(_ db: Database) throws {}

    static var postgresSQL: String { tables.map(keepFunction).joined(separator: "\n") }

    /// The trigger function that keeps `table`'s replaced rows, in the form that builds each
    /// row once: a later step that gives a table history (`V06ProvenanceAndHistory.postgresHistory`)
    /// follows it with this.
    static func keepFunction(of table: String) -> String {
        let history = "\(table)_history"
        return """
            CREATE OR REPLACE FUNCTION \(history)_keep() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO \(history) SELECT * FROM jsonb_populate_record(NULL::\(history),
                    to_jsonb(OLD) || jsonb_build_object('\(HistoryTable.replacedByColumn)', NEW.\(HistoryTable.runColumn)));
                RETURN NULL;
            END $$;
            """
    }
}
