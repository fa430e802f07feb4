extension CivilDate {
    /// The calendar-month parts of `[start, end]`: each month's label (`YYYY-MM`) with the first
    /// and last day of the range inside it.
    public static func monthParts(from start: CivilDate, through end: CivilDate)
        -> [(month: String, start: CivilDate, end: CivilDate)]
    {
        var parts: [(String, CivilDate, CivilDate)] = []
        var cursor = start
        while cursor <= end {
            let monthEnd = CivilDate(
                year: cursor.year, month: cursor.month, day: daysIn(month: cursor.month, year: cursor.year))
            let partEnd = min(monthEnd, end)
            parts.append((cursor.iso8601Month, cursor, partEnd))
            cursor = partEnd.adding(days: 1)
        }
        return parts
    }

    /// Whether `[start, end]` is one whole calendar month.
    public static func isWholeMonth(from start: CivilDate, through end: CivilDate) -> Bool {
        start.day == 1 && start.year == end.year && start.month == end.month
            && end.day == daysIn(month: end.month, year: end.year)
    }
}
