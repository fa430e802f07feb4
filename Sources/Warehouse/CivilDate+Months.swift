import SheetStream

extension CivilDate {
    /// Whether `[start, end]` is one whole calendar month.
    public static func isWholeMonth(from start: CivilDate, through end: CivilDate) -> Bool {
        start.day == 1 && start.year == end.year && start.month == end.month && end.day == daysIn(month: end.month, year: end.year)
    }
}
