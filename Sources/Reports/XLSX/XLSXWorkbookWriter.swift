import CXLSXWriter
import CivilCalendar

#if canImport(Glibc)
    import Glibc
#endif

/// A workbook written by libxlsxwriter in `constant_memory` mode: each sheet's rows go to a
/// temporary file as they are written (so rows must come in order), and `close()` assembles the
/// zip. The creation time is fixed by the caller, which makes the bytes deterministic.
final class XLSXWorkbookWriter {
    let path: String
    private var workbook: UnsafeMutablePointer<lxw_workbook>?

    /// Creates the workbook at `path` with `created` (never the clock) as its creation time.
    init(path: String, title: String, created: CivilDate) throws {
        self.path = path
        // libxlsxwriter only finds out at `close()`, and prints its own complaint then: try first.
        guard let probe = fopen(path, "wb") else {
            throw DocumentError("\(path): cannot create the workbook: \(String(cString: strerror(errno)))")
        }
        fclose(probe)
        Self.keepLargeAllocationsMapped
        var options = lxw_workbook_options(constant_memory: 1, tmpdir: nil, use_zip64: 0)
        guard let workbook = workbook_new_opt(path, &options) else {
            throw DocumentError("\(path): libxlsxwriter could not create the workbook")
        }
        self.workbook = workbook
        var properties = lxw_doc_properties()
        // 00:00 UTC of the day; libxlsxwriter takes 0 to mean "now", which a real report never hits.
        properties.created = time_t(max(1, created.daysSinceEpoch) * 86_400)
        try title.withCString { title in
            properties.title = UnsafeMutablePointer(mutating: title)
            try check(workbook_set_properties(workbook, &properties), "setting the document properties")
        }
    }

    /// In constant-memory mode libxlsxwriter `calloc`s a 128 KiB cell array per sheet. Once glibc
    /// has freed a large mapped block (GRDB and the engine do), its dynamic mmap threshold grows
    /// and such arrays come from the heap, zeroed page by page, a sheet's worth of RSS each. A
    /// fixed threshold keeps them fresh mapped pages, which stay untouched
    /// (docs/decisions.md#measured-reasons-behind-the-code).
    private static let keepLargeAllocationsMapped: Void = {
        _ = CXLSXWriter_fixMmapThreshold(64 * 1024)
    }()

    deinit {
        // A workbook abandoned after an error still owns its temporary files.
        if let workbook { _ = workbook_close(workbook) }
    }

    /// Adds a sheet, named as given (see `SheetNames`).
    func addSheet(named name: String) throws -> XLSXSheetWriter {
        guard let workbook, let sheet = workbook_add_worksheet(workbook, name) else {
            throw DocumentError("\(path): libxlsxwriter refused the sheet name \"\(name)\"")
        }
        return XLSXSheetWriter(sheet: sheet, name: name, path: path)
    }

    /// A cell format owned by the workbook.
    func addFormat(_ configure: (UnsafeMutablePointer<lxw_format>) -> Void) throws -> UnsafeMutablePointer<lxw_format> {
        guard let workbook, let format = workbook_add_format(workbook) else {
            throw DocumentError("\(path): libxlsxwriter could not add a cell format")
        }
        configure(format)
        return format
    }

    /// A chart of `type` (`LXW_CHART_COLUMN`, `LXW_CHART_BAR`) owned by the workbook.
    func addChart(_ type: UInt8) throws -> UnsafeMutablePointer<lxw_chart> {
        guard let workbook, let chart = workbook_add_chart(workbook, type) else {
            throw DocumentError("\(path): libxlsxwriter could not add a chart")
        }
        return chart
    }

    /// Horizontal bars of one series over `rows` of `sheet` (names in `labelColumn`, values in
    /// `valueColumn`), the first row on top, in the actual colour, without a legend.
    func addBarChart(
        title: String, series name: String, sheet: String, rows: ClosedRange<Int>, labelColumn: Int, valueColumn: Int,
        numberFormat: String? = nil
    ) throws -> UnsafeMutablePointer<lxw_chart> {
        let chart = try addChart(UInt8(LXW_CHART_BAR.rawValue))
        let (first, last) = (lxw_row_t(rows.lowerBound), lxw_row_t(rows.upperBound))
        let series = chart_add_series(chart, nil, nil)
        chart_series_set_categories(series, sheet, first, lxw_col_t(labelColumn), last, lxw_col_t(labelColumn))
        chart_series_set_values(series, sheet, first, lxw_col_t(valueColumn), last, lxw_col_t(valueColumn))
        chart_series_set_name(series, name)
        Self.fill(series, colour: ChartPalette.actual)
        chart_title_set_name(chart, title)
        // In a bar chart the x axis is the horizontal value axis, the y axis the categories.
        if let numberFormat { chart_axis_set_num_format(chart.pointee.x_axis, numberFormat) }
        // Bars run bottom-up: reversed categories put the first row on top; labels stay at the
        // far left, clear of negative bars.
        chart_axis_set_reverse(chart.pointee.y_axis)
        chart_axis_set_label_position(chart.pointee.y_axis, UInt8(LXW_CHART_AXIS_LABEL_POSITION_LOW.rawValue))
        chart_legend_set_position(chart, UInt8(LXW_CHART_LEGEND_NONE.rawValue))
        return chart
    }

    /// Gives a chart series a solid fill of `colour` (`0xRRGGBB`), so every reader draws it alike.
    static func fill(_ series: UnsafeMutablePointer<lxw_chart_series>?, colour: Int) {
        var fill = lxw_chart_fill()
        fill.color = lxw_color_t(colour)
        var line = lxw_chart_line()
        line.color = lxw_color_t(colour)
        chart_series_set_fill(series, &fill)
        chart_series_set_line(series, &line)
    }

    /// Writes the zip; the writer is done afterwards.
    func close() throws {
        guard let workbook else { return }
        self.workbook = nil
        try check(workbook_close(workbook), "writing the file")
    }

    private func check(_ error: lxw_error, _ doing: String) throws {
        guard error != LXW_NO_ERROR else { return }
        throw DocumentError("\(path): \(doing) failed: \(String(cString: lxw_strerror(error)))")
    }
}

/// One sheet of an `XLSXWorkbookWriter`; rows 0-based, written in order.
struct XLSXSheetWriter {
    let sheet: UnsafeMutablePointer<lxw_worksheet>
    let name: String
    let path: String

    /// A number, or nothing when there is none (an empty cell, as the CSV's empty field).
    func write(_ value: Double?, row: Int, column: Int, format: UnsafeMutablePointer<lxw_format>?) throws {
        guard let value, value.isFinite else { return }
        try check(
            worksheet_write_number(sheet, lxw_row_t(row), lxw_col_t(column), value, format),
            "row \(row + 1), column \(column + 1): writing the number \(value)")
    }

    /// A date as a date cell (a serial day number shown by `format`), so it sorts and filters as a date.
    func write(_ date: CivilDate, row: Int, column: Int, format: UnsafeMutablePointer<lxw_format>?) throws {
        var datetime = lxw_datetime()
        datetime.year = Int32(date.year)
        datetime.month = Int32(date.month)
        datetime.day = Int32(date.day)
        try check(
            worksheet_write_datetime(sheet, lxw_row_t(row), lxw_col_t(column), &datetime, format),
            "row \(row + 1), column \(column + 1): writing the date \(date.iso8601)")
    }

    func write(_ text: String, row: Int, column: Int, format: UnsafeMutablePointer<lxw_format>? = nil) throws {
        try check(
            worksheet_write_string(sheet, lxw_row_t(row), lxw_col_t(column), text, format),
            "row \(row + 1), column \(column + 1): writing the text \"\(text)\"")
    }

    /// A bold header row at `row` (left-aligned over the first `labelColumns`, right-aligned over
    /// the numbers, wrapped rather than clipped), frozen with the rows above it and repeated on
    /// every printed page; the sheet prints landscape on A4, one page wide.
    func writeHeader(_ titles: [String], row: Int = 0, labelColumns: Int, styles: XLSXStyles) throws {
        try writeTitles(titles, row: row, labelColumns: labelColumns, styles: styles)
        freezeRows(row + 1)
        try repeatOnEveryPage(row: row)
    }

    /// The sheet's title and, under it, its period line: the rows above a table's header.
    func writeHeading(_ heading: PrintHeading, styles: XLSXStyles) throws {
        try write(heading.title, row: 0, column: 0, format: styles.title)
        try write(heading.periodLine, row: 1, column: 0)
    }

    /// Prints `row` (a table's header) at the top of every page.
    func repeatOnEveryPage(row: Int) throws {
        try check(worksheet_repeat_rows(sheet, lxw_row_t(row), lxw_row_t(row)), "repeating the header row")
    }

    /// A bold row of column titles, left-aligned over the first `labelColumns`, right over numbers,
    /// two lines high so a wrapped title is never clipped.
    func writeTitles(_ titles: [String], row: Int, labelColumns: Int, styles: XLSXStyles) throws {
        try check(worksheet_set_row(sheet, lxw_row_t(row), Self.titleRowHeight, nil), "setting the header's height")
        for (column, title) in titles.enumerated() {
            try write(
                title, row: row, column: column, format: column < labelColumns ? styles.header : styles.numberHeader)
        }
    }

    /// The height in points of a row of column titles: two lines.
    static let titleRowHeight = 30.0

    /// Freezes the first `rows` rows above the rest.
    func freezeRows(_ rows: Int) { worksheet_freeze_panes(sheet, lxw_row_t(rows), 0) }

    /// Prints landscape on A4, one page wide, with `scope` in the page header and the heading's
    /// title, period and "data through" with `page x of y` in the footer.
    func setPrintHeading(_ heading: PrintHeading, scope: String) throws {
        worksheet_set_landscape(sheet)
        worksheet_set_paper(sheet, 9)  // A4
        worksheet_fit_to_pages(sheet, 1, 0)
        try check(worksheet_set_header(sheet, "&L" + Self.headerText(scope)), "setting the page header")
        try check(
            worksheet_set_footer(
                sheet, "&L" + Self.headerText(heading.title + " · " + heading.periodLine) + "&Rpage &P of &N"),
            "setting the page footer")
    }

    /// Text for a header or footer section: `&` doubled (else it starts a code), cut to fit
    /// Excel's 255 characters with the codes around it.
    static func headerText(_ text: String) -> String {
        String(text.replacingOccurrences(of: "&", with: "&&").prefix(200))
    }

    /// Column widths in characters, from column 0.
    func setWidths(_ widths: [Double]) throws {
        for (column, width) in widths.enumerated() {
            try check(
                worksheet_set_column(sheet, lxw_col_t(column), lxw_col_t(column), width, nil),
                "setting the width of column \(column + 1)")
        }
    }

    /// An autofilter over the header row at `fromRow` and the `rows - 1` rows below it.
    func autofilter(fromRow: Int = 0, rows: Int, columns: Int) throws {
        try check(
            worksheet_autofilter(
                sheet, lxw_row_t(fromRow), 0, lxw_row_t(fromRow + max(0, rows - 1)), lxw_col_t(columns - 1)),
            "the autofilter")
    }

    /// A chart at a cell, 1.3 × 1.6 times Excel's default size (about 620 × 460 pixels), with
    /// `description` as its alt text.
    func insert(_ chart: UnsafeMutablePointer<lxw_chart>, row: Int, column: Int, description: String) throws {
        try description.withCString { text in
            var options = lxw_chart_options()
            options.x_scale = 1.3
            options.y_scale = 1.6
            options.description = UnsafeMutablePointer(mutating: text)
            try check(
                worksheet_insert_chart_opt(sheet, lxw_row_t(row), lxw_col_t(column), chart, &options),
                "inserting the chart")
        }
    }

    private func check(_ error: lxw_error, _ doing: @autoclosure () -> String) throws {
        guard error != LXW_NO_ERROR else { return }
        throw DocumentError("\(path)!\(name) \(doing()) failed: \(String(cString: lxw_strerror(error)))")
    }
}
