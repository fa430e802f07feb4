import Checks
import CivilCalendar
import Feeds
import Ingest
import SheetFixtures
import SheetStream
import TestSupport
import XCTest

@testable import Warehouse

/// The ingest gate checks a sales-audit file as it is written (`FileGate` feeding
/// `StreamingScan`): its alarms are those the warehouse's one-pass check finds on the file's
/// store-days once the file is in the tables. Random chains, files of 1 to 420 days after
/// histories of 0 to 400, with every kind of fault the sales-audit checks know.
final class StreamingGateTests: WarehouseTestCase {
    func testTheStreamedGateFindsWhatTheWarehouseCheckFindsOnEachBackend() throws {
        var random = SplitMix(seed: 2026_11_24)
        var kinds: [AlarmKind: Int] = [:]
        for round in 0..<7 {
            let chain = RandomChain(random: &random, round: round)
            for location in try TestWarehouses.locations(in: directory, name: "round\(round)") {
                print("backend: \(location.backendName), round \(round): \(chain.summary)")
                let warehouse = try Warehouse(location: location)
                let stores = try chain.writeStores(in: directory)
                XCTAssertEqual(SampleWarehouse.ingest(stores, as: .stores, into: warehouse).status, .ok)
                for (index, rows) in chain.files.enumerated() {
                    let path = directory.appendingPathComponent("sales_audit_\(round)_\(index).csv").path
                    try rows.write(toFile: path, atomically: true, encoding: .utf8)
                    let file = try ReadFile(path, warehouse: warehouse)
                    let streamed = try streamedAlarms(file, in: warehouse)
                    // Batches of 16 rows, gathering up to 64 while the scan is busy: many hand-overs
                    // (how many find the scan busy depends on the threads' timing).
                    let streamedInSmallBatches = try streamedAlarms(
                        file, in: warehouse,
                        gate: FileGate(feed: .salesAudit, settings: CheckSettings(), batchRows: 16, lagRows: 64))
                    let outcome = FileIngestor(
                        warehouse: warehouse, explicitFeed: .salesAudit, options: IngestOptions(rejectThreshold: 1)
                    ).ingest(path)
                    XCTAssertEqual(outcome.status, .ok, outcome.error ?? "")
                    let runID = try XCTUnwrap(outcome.runID)
                    let expected = try warehouse.backend.read { session in
                        try warehouse.alarms(
                            session, judgedSpan: file.span, settings: CheckSettings(),
                            judged: { code in file.touched[code].map(JudgedDays.range) ?? .only([]) })
                    }
                    XCTAssertEqual(outcome.alarms, expected, "round \(round), file \(index): the gate of the ingest")
                    // The scratch run's alarms named as the ingest's run names them.
                    let named = { (alarms: [Alarm]) in
                        alarms.map { alarm in
                            var alarm = alarm
                            if alarm.run == RandomChain.scratchRun {
                                alarm.run = runID
                                alarm.file = path
                            }
                            return alarm
                        }
                    }
                    XCTAssertEqual(
                        named(streamed), expected, "round \(round), file \(index): the scan before the ingest")
                    XCTAssertEqual(
                        named(streamedInSmallBatches), expected,
                        "round \(round), file \(index): the scan in small batches")
                    for alarm in expected { kinds[alarm.kind, default: 0] += 1 }
                }
            }
        }
        print("alarms by kind: \(kinds.sorted { $0.key.rawValue < $1.key.rawValue })")
        for kind in [AlarmKind.outlier, .zeroDay, .repeatedPeriod, .dateShift, .implausible] {
            XCTAssertGreaterThan(kinds[kind] ?? 0, 0, "no \(kind.rawValue) alarm: the rounds test too little")
        }
    }

    /// The alarms of `gate` (a sales-audit file's) on `file` as if it were ingested now (as a run
    /// that does not exist), in a transaction rolled back; the gate must stream it (its rows come
    /// in date order, after everything the warehouse holds).
    private func streamedAlarms(
        _ file: ReadFile, in warehouse: Warehouse,
        gate: FileGate = FileGate(feed: .salesAudit, settings: CheckSettings())
    ) throws -> [Alarm] {
        var alarms: [Alarm] = []
        try warehouse.backend.transaction { session in
            var gate = gate
            for record in file.records { try gate.add(record, run: RandomChain.scratchRun, session) }
            XCTAssertFalse(gate.readsBack, "the gate streams a file in date order")
            alarms = try gate.alarms(session, in: warehouse)
            return false
        }
        return alarms
    }
}

/// A file's records as the ingest reads them, and the store-days they touch.
private struct ReadFile {
    var records: [FeedRecord] = []

    init(_ path: String, warehouse: Warehouse) throws {
        let reader = FeedFileReader(
            definition: FeedOptions().definition(.salesAudit), directory: try warehouse.storeDirectory(),
            options: FeedOptions())
        _ = try reader.read(try SpreadsheetFile.open(path: path)) { records.append($0) }
    }

    /// Per store, the first and last day of its rows (days since the epoch).
    var touched: [String: ClosedRange<Int>] {
        var days: [String: ClosedRange<Int>] = [:]
        for case .salesAudit(let row) in records {
            let day = row.date.daysSinceEpoch
            days[row.store] = days[row.store].map { min($0.lowerBound, day)...max($0.upperBound, day) } ?? day...day
        }
        return days
    }

    /// From the first day of its rows to the last.
    var span: ClosedRange<Int> {
        let days = touched.values
        return (days.map(\.lowerBound).min() ?? 0)...(days.map(\.upperBound).max() ?? 0)
    }
}

/// A random chain's sales-audit files, as CSV text: stores with their own level, ticket and
/// weekly rhythm, day-to-day noise, and faults — a value ×100 or ÷100, a whole day ×100, zero
/// and missing days, negative transactions, weeks copied from 7, 28, 35 or 364 days earlier, a
/// file re-dated from a year before, a store-day corrected further down the file, a store that
/// opens and one that closes, days the export marks closed — a history, then the files after it.
private struct RandomChain {
    /// The run the scan before the ingest names.
    static let scratchRun: Int64 = 1_000_000
    static let weekdayFactors = [0.85, 0.8, 0.9, 0.95, 1.15, 1.45, 0.9]

    let storeCount: Int
    private(set) var files: [String] = []
    private(set) var summary = ""
    private var levels: [Double] = []
    private var tickets: [Double] = []
    private var units: [Double] = []
    /// Per store, each day's figures as written last.
    private var written: [[Int: SalesFigures]]
    /// Per store, the distance a copy reads back and its last day, while one goes on.
    private var copies: [(lag: Int, until: Int)?]
    private let opening: Int
    private let closing: Int

    init(random: inout SplitMix, round: Int) {
        storeCount = 6 + random.int(0..<6)
        written = Array(repeating: [:], count: storeCount)
        copies = Array(repeating: nil, count: storeCount)
        for _ in 0..<storeCount {
            levels.append(6_000 * exp(random.normal() * 0.5))
            tickets.append(250 * exp(random.normal() * 0.3))
            units.append(1.4 + random.unit() * 0.6)
        }
        let first = CivilDate(year: 2023, month: 1, day: 2).daysSinceEpoch
        let historyDays = [0, 20, 90, 380, 400][random.int(0..<5)]
        let lengths = Array([[1, 5, 40], [250, 293, 294, 300, 420]][round % 2].shuffled(using: &random).prefix(2))
        let reDated = round == 3 && historyDays >= 380
        // A re-dated file copies every store's year before: the store that opens is open by then.
        opening = first + (reDated ? 0 : random.int(0..<700))
        closing = first + random.int(100..<900)
        summary =
            "\(storeCount) stores, \(historyDays) days of history, then \(lengths.map(String.init).joined(separator: " and ")) days\(reDated ? ", the first file re-dated from a year before" : "")"
        var day = first
        if historyDays > 0 {
            files.append(file(days: day..<(day + historyDays), random: &random, reDated: false))
            day += historyDays + random.int(0..<3)
        }
        for (index, length) in lengths.enumerated() {
            files.append(file(days: day..<(day + length), random: &random, reDated: reDated && index == 0))
            day += length
        }
    }

    func writeStores(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("stores_\(storeCount).csv").path
        let lines = (1...storeCount).map { String(format: "%02d,Store %d,Region %d", $0, $0, $0 % 3) }
        try (["code,name,region"] + lines).joined(separator: "\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The CSV of `days`, date by date.
    private mutating func file(days: Range<Int>, random: inout SplitMix, reDated: Bool) -> String {
        var text = "Store,Date,Net Sales,Transactions,Items,Open\n"
        for day in days {
            let wholeDay = random.unit() < 0.004
            var order = Array(0..<storeCount)
            if random.unit() < 0.1 { order.shuffle(using: &random) }
            for store in order {
                if store == storeCount - 1, day < opening { continue }
                if store == storeCount - 2, day > closing { continue }
                if random.unit() < 0.003 { continue }
                var figures = nextFigures(store: store, day: day, random: &random, reDated: reDated)
                if wholeDay { figures.totalSalesCents *= 100 }
                // A day the export marks closed, with a short day's sales: never judged, never a reference.
                let closed = Self.isClosed(store: store, day: day)
                if closed { figures.totalSalesCents /= 20 }
                let date = CivilDate(daysSinceEpoch: day).iso8601
                if random.unit() < 0.01 {
                    // A row corrected further down the file: the later one stands.
                    var first = figures
                    first.totalSalesCents += 1_234
                    text += Self.line(store: store, date: date, first, closed: closed)
                }
                text += Self.line(store: store, date: date, figures, closed: closed)
                written[store][day] = figures
            }
        }
        return text
    }

    private static func line(store: Int, date: String, _ figures: SalesFigures, closed: Bool) -> String {
        let cents = figures.totalSalesCents
        let code = store < 9 ? "0\(store + 1)" : "\(store + 1)"
        return
            "\(code),\(date),\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100),\(figures.totalTransactions.map(String.init) ?? ""),\(figures.totalItems.map(String.init) ?? ""),\(closed ? 0 : 1)\n"
    }

    /// About one store-day in a hundred is closed, chosen without drawing from the random stream.
    private static func isClosed(store: Int, day: Int) -> Bool { (day * 31 + store * 17) % 101 == 0 }

    /// A store-day's figures: copied from earlier while a copy goes on (or the whole file is
    /// re-dated), else fresh, with a fault now and then.
    private mutating func nextFigures(store: Int, day: Int, random: inout SplitMix, reDated: Bool) -> SalesFigures {
        if reDated, let earlier = written[store][day - 364] { return earlier }
        if let copy = copies[store] {
            if day <= copy.until, let earlier = written[store][day - copy.lag] { return earlier }
            copies[store] = nil
        }
        if random.unit() < 0.004 {
            copies[store] = ([7, 28, 35, 364][random.int(0..<4)], day + 6 + random.int(0..<5))
        }
        let dollars = levels[store] * Self.weekdayFactors[((day % 7) + 10) % 7] * exp(random.normal() * 0.12)
        let transactions = max(1, Int(dollars / tickets[store]))
        var figures = SalesFigures(
            totalSalesCents: Int64(dollars * 100), totalTransactions: transactions,
            totalItems: max(transactions, Int(Double(transactions) * units[store])))
        switch random.unit() {
        case ..<0.004: figures.totalSalesCents *= 100
        case ..<0.006: figures.totalSalesCents /= 100
        case ..<0.009: figures = SalesFigures(totalSalesCents: 0, totalTransactions: 0, totalItems: 0)
        case ..<0.011: figures.totalTransactions = -transactions
        default: break
        }
        return figures
    }
}
