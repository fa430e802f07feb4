import CivilCalendar

/// How `Warehouse.measures(of:)` sums each part of a report: which store-month
/// rollups to add and which ranges of the feed tables to add or subtract (SPEC section 13).
///
/// A calendar month wholly inside a part comes from its rollup. A part that covers more than half
/// of a month takes the month's rollup less the days of the month outside the part, which for a
/// to-date period are mostly days yet to come, and for a fiscal month a few days across a
/// calendar month's edge; a smaller piece is summed from its own days. Every measure is an exact
/// integer, so each way gives the same bits. With the rollups off, every part is summed from the
/// feed tables.
struct MeasurePlan {
    /// A month's rollup, added to a part (its position in the parts given).
    struct RollupTerm {
        let month: String
        let part: Int
    }

    /// Days of the feed tables, added to a part or subtracted from it.
    struct ScanTerm {
        let range: DateRange
        let part: Int
        let subtracts: Bool
    }

    private(set) var rollups: [RollupTerm] = []
    private(set) var scans: [ScanTerm] = []

    init(parts: [DateRange], usesRollups: Bool) {
        for (part, range) in parts.enumerated() {
            guard usesRollups else {
                scans.append(ScanTerm(range: range, part: part, subtracts: false))
                continue
            }
            for piece in range.monthParts {
                let first = CivilDate(year: piece.part.start.year, month: piece.part.start.month, day: 1)
                let month = DateRange(
                    start: first, end: first.adding(days: CivilDate.daysIn(month: first.month, year: first.year) - 1))
                guard piece.part.days * 2 > month.days else {
                    scans.append(ScanTerm(range: piece.part, part: part, subtracts: false))
                    continue
                }
                rollups.append(RollupTerm(month: piece.month, part: part))
                let outside = [
                    DateRange(start: month.start, end: piece.part.start.adding(days: -1)),
                    DateRange(start: piece.part.end.adding(days: 1), end: month.end),
                ]
                for rest in outside where rest.days > 0 {
                    scans.append(ScanTerm(range: rest, part: part, subtracts: true))
                }
            }
        }
    }

    /// The months whose rollups the plan reads, once each.
    var rollupMonths: [String] { Array(Set(rollups.map(\.month))).sorted() }
}
