import CivilCalendar
import Warehouse

/// The measures of several overlapping ranges, each day read once: the union of the ranges is
/// cut at every range's ends and at the given `cuts` (goal-month starts), each segment is summed
/// once (`Warehouse.measures(of:)`, which serves whole and mostly-whole months from the
/// rollups), and each range is assembled from its segments.
///
/// A report's periods nest (WTD in MTD in QTD in YTD, the review's months in its quarter), so
/// their segments are few; cutting at goal-month starts gives each segment one goal month.
struct SegmentedMeasures {
    private let segments: [DateRange]
    /// Per segment, the measures of each store position of the report's `StoreIndex` (zero
    /// where a store has none).
    private let sums: [[MeasureSums]]

    init(ranges: [DateRange], cuts: [CivilDate] = [], stores: StoreIndex, warehouse: Warehouse) throws {
        let segments = Self.segments(of: ranges, cuts: cuts)
        let measures = try warehouse.measures(of: segments)
        let positions = measures.stores.map(stores.index(of:))
        self.segments = segments
        sums = segments.indices.map { segment in
            var row = Array(repeating: MeasureSums(), count: stores.count)
            for (number, position) in positions.enumerated() {
                if let position, let value = measures.measures(part: segment, store: number) { row[position] = value }
            }
            return row
        }
    }

    /// Per store position, the measures of `range` (one of the ranges given) in each of `parts`:
    /// each segment's go to the part `label` names for it (its goal month, say).
    func measures(of range: DateRange, parts: [String], label: (DateRange) -> String) -> [[MeasureSums]] {
        let storeCount = sums.first?.count ?? 0
        var result = Array(repeating: Array(repeating: MeasureSums(), count: parts.count), count: storeCount)
        for (segment, stores) in zip(segments, sums) where range.contains(segment.start) {
            guard let part = parts.firstIndex(of: label(segment)) else { continue }
            for (position, value) in stores.enumerated() { result[position][part] += value }
        }
        return result
    }

    /// Per store position, the measures of `range` (one of the ranges given).
    func totals(of range: DateRange) -> [MeasureSums] {
        var result = Array(repeating: MeasureSums(), count: sums.first?.count ?? 0)
        for (segment, stores) in zip(segments, sums) where range.contains(segment.start) {
            for (position, value) in stores.enumerated() { result[position] += value }
        }
        return result
    }

    /// The union of `ranges`, cut at their starts, at the day after their ends and at `cuts`:
    /// disjoint segments in date order, each inside or outside every range.
    static func segments(of ranges: [DateRange], cuts: [CivilDate]) -> [DateRange] {
        let boundaries = Set(ranges.flatMap { [$0.start, $0.end.adding(days: 1)] } + cuts).sorted()
        var segments: [DateRange] = []
        for (start, next) in zip(boundaries, boundaries.dropFirst()) {
            let segment = DateRange(start: start, end: next.adding(days: -1))
            if ranges.contains(where: { $0.contains(segment.start) }) { segments.append(segment) }
        }
        return segments
    }
}
