import Foundation
import OutputText
import Warehouse

/// `ddkpi runs show RUN` (SPEC section 16): the ledger row, what the run did per store, and the
/// keys it changed with `old → new` per changed column, money as money.
public enum RunDetailsRenderer {
    /// The text people read.
    public static func text(_ details: RunDetails) -> String {
        let run = details.run
        // Paths, sheet names and stored values may hold control characters: escaped, as in tables.
        var text = "run \(run.id)  \(run.status)  \(run.feed ?? "?")  \(ControlCharacters.escaped(run.source))"
        if let sheet = run.sheet { text += "  (sheet \(ControlCharacters.escaped(sheet)))" }
        let stored = "inserted \(run.inserted)  updated \(run.updated)  unchanged \(run.unchanged)"
        let counts: String
        if let read = run.read, let skipped = run.skipped, let rejected = run.rejected {
            counts = "read \(read)  \(stored)  skipped \(skipped)  rejected \(rejected)"
        } else {
            counts = "in your stores: \(stored)"
        }
        text +=
            "\nfinished \(run.finishedAt) by \(ControlCharacters.escaped(run.by))  \(counts)"
            + (run.undoesRun == nil ? "" : "  deleted \(run.deleted)") + "\n"
        if run.historyPruned { text += "its history was pruned (or it predates history): it cannot be undone\n" }
        if !details.stores.isEmpty {
            var table = TextTable()
            table.add(["store", "inserted", "updated", "unchanged", "first", "last"])
            for store in details.stores {
                table.add([
                    store.store, String(store.inserted), String(store.updated), String(store.unchanged),
                    store.firstDate, store.lastDate,
                ])
            }
            text += "\n" + table.render()
        }
        text += "\nchanged keys: \(details.changedKeys)"
        if details.changes.count < details.changedKeys { text += " (the first \(details.changes.count))" }
        text += "\n"
        for change in details.changes {
            let key = change.key.map { $0.new ?? "" }.joined(separator: " ")
            let columns = change.columns.map { column in
                let (label, format) = Self.label(column.name)
                return "\(label) \(format(column.old)) → \(format(column.new))"
            }
            text += ControlCharacters.escaped("\(change.table) \(key): \(columns.joined(separator: "; "))") + "\n"
        }
        return text
    }

    /// The JSON: the ledger row, the per-store counts and the changes, values as stored.
    public static func json(_ details: RunDetails) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(details), as: UTF8.self) + "\n"
    }

    /// A stored column's name for people, and how to write its values: cents as money,
    /// millionths as a percent, anything else as stored.
    private static func label(_ column: String) -> (String, (String?) -> String) {
        let shown = { (value: String?) in value ?? "—" }
        if column.hasSuffix("_cents") {
            return (
                String(column.dropLast(6)),
                { value in value.flatMap(Double.init).map { NumberText.money($0 / 100, decimals: 2) } ?? shown(value) }
            )
        }
        if column.hasSuffix("_pct_millionths") {
            let name = String(column.dropLast("_pct_millionths".count)) + "_pct"
            return (
                name,
                { value in
                    value.flatMap(Double.init).map { NumberText.percent($0 / 1_000_000, decimals: 1) }
                        ?? shown(value)
                }
            )
        }
        return (column, shown)
    }
}
