import CivilCalendar

/// How `Warehouse.measures(parts:)` sums each labelled part of a report: which store-month
/// rollups to add and which ranges of the feed tables to add or subtract (SPEC section 13).
///
/// A calendar month wholly inside a part comes from its rollup. A part that covers more than half
/// of a month takes the month's rollup less the days of the month outside the part, which for a
/// to-date period are mostly days yet to come, and for a fiscal month a few days across a
/// calendar month's edge; a smaller piece is summed from its own days. Every measure is an exact
/// integer, so each way gives the same bits. With the rollups off, every part is summed from the
/// feed tables.
struct MeasurePlan {
    /// A month's rollup, added to a part.
    struct RollupTerm {
        let month: String
        let label: String
    }

    /// Days of the feed tables, added to a part or subtracted from it.
    struct ScanTerm {
        let range: DateRange
        let label: String
        let subtracts: Bool
    }

    private(set) var rollups: [RollupTerm] = []
    private(set) var scans: [ScanTerm] = []

    init(parts: [(label: String, range: DateRange)], usesRollups: Bool) {
        for (label, range) in parts {
            guard usesRollups else {
                scans.append(ScanTerm(range: range, label: label, subtracts: false))
                continue
            }
            for piece in range.monthParts {
                let first = CivilDate(year: piece.part.start.year, month: piece.part.start.month, day: 1)
                let month = DateRange(
                    start: first, end: first.adding(days: CivilDate.daysIn(month: first.month, year: first.year) - 1))
                guard piece.part.days * 2 > month.days else {
                    scans.append(ScanTerm(range: piece.part, label: label, subtracts: false))
                    continue
                }
                rollups.append(RollupTerm(month: piece.month, label: label))
                let outside = [
                    DateRange(start: month.start, end: piece.part.start.adding(days: -1)),
                    DateRange(start: piece.part.end.adding(days: 1), end: month.end),
                ]
                for rest in outside where rest.days > 0 {
                    scans.append(ScanTerm(range: rest, label: label, subtracts: true))
                }
            }
        }
    }

    /// The months whose rollups the plan reads, once each.
    var rollupMonths: [String] { Array(Set(rollups.map(\.month))).sorted() }
}
