import KPI

/// A ranked report as a workbook (SPEC section 12): one sheet per scope in report order, named
/// by the scope (`SheetNames`), with its title and period above a bold frozen header, the metrics' number formats, an
/// autofilter, and % vs LY as a number with its ▲/▼ text in the next column.
public enum RankingWorkbook {
    /// Writes `document` to `path`.
    public static func write(
        _ document: RankingDocument, to path: String, options: DocumentOptions = DocumentOptions()
    ) throws {
        let workbook = try XLSXWorkbookWriter(path: path, title: document.title, created: document.date)
        let styles = try XLSXStyles(workbook, neutralBand: options.neutralBand)
        let heading = PrintHeading(title: document.title, period: document.period, dataThrough: options.dataThrough)
        var names = SheetNames()
        for table in document.tables {
            let sheet = try workbook.addSheet(named: names.unique(table.title))
            try sheet.setPrintHeading(heading, scope: table.title)
            try sheet.writeHeading(
                PrintHeading(title: table.caption, period: document.period, dataThrough: options.dataThrough),
                styles: styles)
            try write(table, sheet: sheet, styles: styles)
            if let chart = table.chart { try insertChart(chart, table: table, sheet: sheet, workbook: workbook) }
        }
        if document.tables.isEmpty { _ = try workbook.addSheet(named: "Report") }
        try workbook.close()
    }

    /// The sheet's columns: each table column, and a ▲/▼ text column after each change.
    private static func sheetColumns(_ table: RankingTable) -> [(title: String, width: Double, isLabel: Bool)] {
        table.columns.flatMap { column -> [(title: String, width: Double, isLabel: Bool)] in
            switch column.kind {
            case .text: return [(column.title, column.width, true)]
            case .number: return [(column.title, column.width, false)]
            case .change: return [(column.title, column.width, false), ("\(column.title) ▲/▼", 11, false)]
            }
        }
    }

    /// The sheet column of table column `index` (a change column adds its ▲/▼ column after it).
    private static func sheetColumn(_ index: Int, in table: RankingTable) -> Int {
        index
            + table.columns.prefix(index).filter { if case .change = $0.kind { return true } else { return false } }
            .count
    }

    /// The scope's chart as native horizontal bars over its first rows, the first on top.
    private static func insertChart(
        _ chart: RankingChart, table: RankingTable, sheet: XLSXSheetWriter, workbook: XLSXWorkbookWriter
    ) throws {
        guard !chart.rows.isEmpty else { return }
        let bars = try workbook.addBarChart(
            title: chart.title, series: chart.valueTitle, sheet: sheet.name,
            rows: (headerRow + 1)...(headerRow + chart.rows.count),
            labelColumn: sheetColumn(chart.labelColumn, in: table),
            valueColumn: sheetColumn(chart.valueColumn, in: table))
        try sheet.insert(
            bars, row: headerRow, column: sheetColumns(table).count + 1, description: "\(chart.title) of \(table.title)"
        )
    }

    /// The row of a sheet's column titles, under its title and period rows.
    static let headerRow = 3

    private static func write(_ table: RankingTable, sheet: XLSXSheetWriter, styles: XLSXStyles) throws {
        let columns = sheetColumns(table)
        try sheet.writeHeader(columns.map(\.title), row: headerRow, labelColumns: 0, styles: styles)
        for (index, column) in columns.enumerated() where column.isLabel {
            try sheet.write(column.title, row: headerRow, column: index, format: styles.header)
        }
        try sheet.setWidths(columns.map(\.width))
        for (index, cells) in table.rows.enumerated() {
            let offset = headerRow + index
            var column = 0
            for (cell, definition) in zip(cells, table.columns) {
                switch (cell, definition.kind) {
                case (.text(let text), _):
                    try sheet.write(text, row: offset + 1, column: column)
                case (.number(let value), .change):
                    try sheet.write(value, row: offset + 1, column: column, format: styles.change(value))
                    column += 1
                    try sheet.write(
                        NumberText.change(value), row: offset + 1, column: column, format: styles.changeText)
                case (.number(let value), .number(let format)):
                    try sheet.write(value, row: offset + 1, column: column, format: styles.number(format))
                case (.number(let value), .text):
                    try sheet.write(value, row: offset + 1, column: column, format: nil)
                }
                column += 1
            }
        }
        try sheet.autofilter(fromRow: headerRow, rows: table.rows.count + 1, columns: columns.count)
    }
}
