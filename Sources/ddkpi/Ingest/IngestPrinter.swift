import Checks
import Feeds
import Logging
import OutputText
import Warehouse

/// Prints ingest outcomes: one line per file on standard output, details on standard error.
struct IngestPrinter {
    let output = TextOutput()
    /// Where structured events go; with `json`, human diagnostics (which quote cell values) are not printed.
    let log: EventLog
    private(set) var outcomes: [IngestOutcome] = []

    init(log: EventLog = EventLog(format: .text)) { self.log = log }

    mutating func print(_ outcome: IngestOutcome) {
        outcomes.append(outcome)
        var line =
            outcome.status.rawValue.padded(to: 10) + ControlCharacters.escaped(FeedFileReader.fileName(outcome.path))
        if let run = outcome.runID { line += "  run=\(run)" }
        line += "  feed=\(outcome.feed?.rawValue ?? "?") read=\(outcome.read) inserted=\(outcome.counts.inserted)"
        line += " updated=\(outcome.counts.updated) unchanged=\(outcome.counts.unchanged) skipped=\(outcome.skipped)"
        line += " rejected=\(outcome.rejected)"
        if outcome.dryRun { line += " (dry run: nothing written)" }
        output.write(line + "\n")
        output.flush()
        var fields: Logger.Metadata = [
            "file": .string(outcome.path), "feed": .string(outcome.feed?.rawValue ?? ""),
            "status": .string(outcome.status.rawValue),
            "read": .int(outcome.read), "inserted": .int(outcome.counts.inserted),
            "updated": .int(outcome.counts.updated),
            "unchanged": .int(outcome.counts.unchanged), "skipped": .int(outcome.skipped),
            "rejected": .int(outcome.rejected),
        ]
        if let run = outcome.runID { fields["run"] = .int(Int(run)) }
        if let error = outcome.error { fields["error"] = .string(error) }
        if !outcome.alarms.isEmpty {
            fields["alarms"] = .int(outcome.alarms.count)
            fields["alarmsAccepted"] = .bool(outcome.alarmsAccepted)
        }
        if outcome.status == .failed || outcome.status == .held {
            log.error("ingest.file", fields: fields)
        } else {
            log.info("ingest.file", fields: fields)
        }
        printAlarms(outcome)
        guard !log.isStructured else { return }
        if let error = outcome.error, outcome.status == .failed || outcome.status == .held {
            // Reader errors already start with the path; say it once.
            Diagnostics.error(error.hasPrefix(outcome.path) ? error : "\(outcome.path): \(error)")
        }
        for reject in outcome.rejects.prefix(5) { Diagnostics.warning("reject: \(reject.description)") }
        if outcome.rejects.count > 5 {
            Diagnostics.warning(
                "… and \(outcome.rejected - 5) more rejects (see --rejects or ddkpi runs --format json)")
        }
        outcome.warnings.prefix(5).forEach(Diagnostics.warning)
    }

    /// The first five alarms of a file, then their count (every one in a JSON log).
    private func printAlarms(_ outcome: IngestOutcome) {
        for alarm in outcome.alarms where log.isStructured {
            log.warning(
                "ingest.alarm",
                fields: [
                    "file": .string(outcome.path), "kind": .string(alarm.kind.rawValue),
                    "feed": .string(alarm.feed.rawValue),
                    "store": .string(alarm.store), "start": .string(alarm.days.start.iso8601),
                    "end": .string(alarm.days.end.iso8601), "metric": .string(alarm.metric),
                ])
        }
        guard !log.isStructured else { return }
        let file = ControlCharacters.escaped(outcome.path)
        for alarm in outcome.alarms.prefix(5) {
            let days =
                alarm.kind.isSpan ? "\(alarm.days.start.iso8601)…\(alarm.days.end.iso8601)" : alarm.days.start.iso8601
            Diagnostics.warning(
                "\(file): alarm: \(alarm.kind.rawValue) store \(alarm.store) \(days) \(alarm.metric): \(alarm.note)")
        }
        guard !outcome.alarms.isEmpty else { return }
        let more = outcome.alarms.count > 5 ? ", \(outcome.alarms.count - 5) not shown" : ""
        // A held file wrote nothing, so only a committed run's alarms can be checked again.
        let seeAll = outcome.status == .ok ? outcome.runID.map { " (see ddkpi check --run \($0))" } ?? "" : ""
        Diagnostics.warning(
            "\(file): \(outcome.alarms.count) alarm\(outcome.alarms.count == 1 ? "" : "s")\(more)\(seeAll)")
        if outcome.alarmsAccepted {
            Diagnostics.warning(
                "\(outcome.path): loaded with \(outcome.alarms.count) alarms accepted (--accept-alarms)")
        }
    }

    func summary() {
        let count = { (status: IngestStatus) in outcomes.filter { $0.status == status }.count }
        let read = outcomes.map(\.read).reduce(0, +)
        let inserted = outcomes.map(\.counts.inserted).reduce(0, +)
        let updated = outcomes.map(\.counts.updated).reduce(0, +)
        let rejected = outcomes.map(\.rejected).reduce(0, +)
        log.info(
            "ingest.summary",
            fields: [
                "files": .int(outcomes.count), "ok": .int(count(.ok)), "failed": .int(count(.failed)),
                "duplicate": .int(count(.duplicate)), "held": .int(count(.held)),
                "read": .int(read), "inserted": .int(inserted), "updated": .int(updated), "rejected": .int(rejected),
            ])
        let held = count(.held) == 0 ? "" : ", \(count(.held)) held"
        output.write(
            "\(outcomes.count) file\(outcomes.count == 1 ? "" : "s"): \(count(.ok)) ok, \(count(.failed)) failed, \(count(.duplicate)) duplicate\(held); \(read) rows read, \(inserted) inserted, \(updated) updated, \(rejected) rejected\n"
        )
        output.flush()
    }

    var anyFailed: Bool { outcomes.contains { $0.status == .failed } }

    /// Whether the checks held any file back.
    var anyHeld: Bool { outcomes.contains { $0.status == .held } }

    /// Writes every kept reject as CSV: file,sheet,row,column,header,value,reason.
    func writeRejects(to path: String) throws {
        let file = try TextOutput(path: path)
        file.write("file,sheet,row,column,header,value,reason\n")
        for reject in outcomes.flatMap(\.rejects) {
            let fields = [
                reject.file, reject.sheet, String(reject.row), reject.column ?? "", reject.header ?? "", reject.value,
                reject.reason,
            ]
            file.write(fields.map(CSVText.field).joined(separator: ",") + "\n")
        }
        file.flush()
    }
}

extension String {
    func padded(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
