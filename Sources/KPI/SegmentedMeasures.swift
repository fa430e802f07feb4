import CivilCalendar
import Warehouse

/// The measures of several overlapping ranges, each day read once: the union of the ranges is
/// cut at every range's ends and at the given `cuts` (goal-month starts), each segment is summed
/// once (`Warehouse.measures(parts:)`, which serves whole and mostly-whole months from the
/// rollups), and each range is assembled from its segments.
///
/// A report's periods nest (WTD in MTD in QTD in YTD, the review's months in its quarter), so
/// their segments are few; cutting at goal-month starts gives each segment one goal month.
struct SegmentedMeasures {
    private let segments: [DateRange]
    /// Per segment, each store's measures.
    private let sums: [[String: MeasureSums]]

    init(ranges: [DateRange], cuts: [CivilDate] = [], warehouse: Warehouse) throws {
        let segments = Self.segments(of: ranges, cuts: cuts)
        var sums = Array(repeating: [String: MeasureSums](), count: segments.count)
        let measures = try warehouse.measures(parts: segments.enumerated().map { (String($0.offset), $0.element) })
        for (key, value) in measures {
            if let index = Int(key.month) { sums[index][key.store, default: MeasureSums()] += value }
        }
        self.segments = segments
        self.sums = sums
    }

    /// The measures of `range` (one of the ranges given) per store and label: each segment's
    /// under the label `label` gives it (its goal month, say), summed where labels repeat.
    func measures(of range: DateRange, label: (DateRange) -> String) -> [StoreMonth: MeasureSums] {
        var result: [StoreMonth: MeasureSums] = [:]
        for (segment, stores) in zip(segments, sums) where range.contains(segment.start) {
            let name = label(segment)
            for (store, value) in stores {
                result[StoreMonth(store: store, month: name), default: MeasureSums()] += value
            }
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
