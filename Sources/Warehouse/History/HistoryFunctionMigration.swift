import GRDB

/// Migration "v10: history rows built once each" (SPEC section 16), PostgreSQL's alone: the
/// functions of the history triggers (`<table>_history_keep`, which "v6: provenance and
/// history" and "v7: vendor names" created) build each replaced row once. Their first form
/// selected `(jsonb_populate_record(…)).*`, which PostgreSQL evaluates once per column: a
/// re-send that changed 30,000 rows spent 2.5 s in the triggers, 0.5 s now. The rows they
/// write are the same, still copied by column name.
///
/// SQLite's triggers name their columns and build nothing: its step changes nothing, and is
/// there so both backends record the same steps.
enum HistoryFunctionMigration {
    static let name = "v10: history rows built once each"

    static func sqlite(_ db: Database) throws {}

    static var postgresSQL: String {
        HistoryTable.all.map { table in
            let history = table.history
            return """
                CREATE OR REPLACE FUNCTION \(history)_keep() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO \(history) SELECT * FROM jsonb_populate_record(NULL::\(history),
                        to_jsonb(OLD) || jsonb_build_object('\(HistoryTable.replacedByColumn)', NEW.\(HistoryTable.runColumn)));
                    RETURN NULL;
                END $$;
                """
        }.joined(separator: "\n")
    }
}
