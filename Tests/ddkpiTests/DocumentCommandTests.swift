import Foundation
import TestSupport
import XCTest

/// The review as documents (SPEC section 12), from the sample warehouse of `GoldenReportTests`.
extension GoldenReportTests {
    /// Every Summary cell read back by SheetStream (`ddkpi dump`) equals the CSV output's value for
    /// the quarter as libxlsxwriter stores a double: to 16 significant digits (`%.16G`; Excel keeps 15).
    func testWorkbookValuesEqualTheCSVOutput() throws {
        let database = try sampleDatabase()
        let summary = try CommandRunner.ddkpi(["dump", try sampleWorkbook(), "--sheet", "Summary", "--format", "csv"])
        XCTAssertEqual(summary.status, 0, summary.stderr)
        let csv = try CommandRunner.ddkpi(["--db", database, "review", "--quarter", "2025Q2", "--format", "csv"])
        let quarterRows = Self.fields(csv.stdout).filter { $0.count == 13 && $0[1] == "2025Q2" }
        // The table of every scope × metric follows the headline cards and the ranked stores.
        let sheetRows = Array(try XCTUnwrap(Self.fields(summary.stdout).split { $0.first == "Scope" }.last))
        XCTAssertEqual(sheetRows.count, quarterRows.count)
        XCTAssertGreaterThan(quarterRows.count, 0)
        for (sheet, csv) in zip(sheetRows, quarterRows) {
            // Scopes named for people: `08 Natick (East)`, `Region East`, `All stores`.
            let name =
                csv[0] == "ALL"
                ? "All stores" : csv[0].hasPrefix("region:") ? "Region " + csv[0].dropFirst(7) : csv[0] + " "
            XCTAssertTrue(sheet[0].hasPrefix(name), "\(sheet[0]) for \(csv[0])")
            // actual, target, % to target, LY, % vs LY: sheet columns C, D, E, G, H; CSV fields 4 to 8.
            for (sheetColumn, csvField) in [(2, 3), (3, 4), (4, 5), (6, 6), (7, 7)] {
                XCTAssertEqual(
                    Double(sheet[sheetColumn]), Self.stored(csv[csvField]), "\(csv[0]) \(csv[2]) field \(csvField + 1)")
            }
        }
    }

    private static func fields(_ csv: String) -> [[Substring]] {
        csv.split(separator: "\n").map { line in line.split(separator: ",", omittingEmptySubsequences: false) }
    }

    /// A path in the directory of the sample database.
    func scratchPath(_ name: String) throws -> String {
        _ = try sampleDatabase()
        return try XCTUnwrap(Self.sample.directory).appendingPathComponent(name).path
    }

    /// A CSV number as the workbook stores it; `nil` for an empty field.
    private static func stored(_ text: Substring) -> Double? {
        Double(text).flatMap { Double(String(format: "%.16G", $0)) }
    }

    func testLibreOfficeConvertsTheWorkbook() throws {
        guard let soffice = Self.tool("soffice") else {
            print("notice: soffice not installed (apt-get install libreoffice-calc-nogui); LibreOffice check skipped")
            return
        }
        let output = URL(fileURLWithPath: try scratchPath("libreoffice"))
        let result = try Self.run(
            soffice, ["--headless", "--convert-to", "pdf", "--outdir", output.path, try sampleWorkbook()])
        XCTAssertEqual(result, 0)
        let pdf = try Data(contentsOf: output.appendingPathComponent("review-2025Q2.pdf"))
        XCTAssertTrue(pdf.starts(with: Array("%PDF".utf8)))
    }

    func testOpenpyxlLoadsTheWorkbookWithItsCharts() throws {
        guard let python = Self.tool("python3"), try Self.run(python, ["-c", "import openpyxl"]) == 0 else {
            print(
                "notice: python3 with openpyxl not installed (apt-get install python3-openpyxl); openpyxl check skipped"
            )
            return
        }
        let script = """
            import sys, openpyxl
            book = openpyxl.load_workbook(sys.argv[1])
            assert book.sheetnames[0] == "Summary", book.sheetnames
            summary = book["Summary"]
            header = next(row[0].row for row in summary.iter_rows() if row[0].value == "Scope")
            assert summary.auto_filter.ref == f"A{header}:I{header + 81}", summary.auto_filter.ref
            assert summary.freeze_panes == "A5", summary.freeze_panes
            assert summary["A1"].value == "Quarterly review 2025Q2 — All stores", summary["A1"].value
            assert all(len(sheet._charts) == 1 for sheet in book.worksheets), "the ranking and a chart per scope sheet"
            assert summary[f"C{header + 1}"].number_format == "$#,##0", summary[f"C{header + 1}"].number_format
            assert summary[f"E{header + 1}"].number_format == '+0.0%;"−"0.0%;0.0%', summary[f"E{header + 1}"].number_format
            assert book.worksheets[1].oddHeader.left.text == "08 Natick (East)", book.worksheets[1].oddHeader.left.text
            assert book.worksheets[1].oddFooter.right.text == "page &P of &N", book.worksheets[1].oddFooter.right.text
            """
        XCTAssertEqual(try Self.run(python, ["-c", script, try sampleWorkbook()]), 0)
    }

    func testPDFHasAPagePerScope() throws {
        let database = try sampleDatabase()
        let path = try scratchPath("review.pdf")
        guard Self.tool("chromium") != nil || Self.tool("chromium-browser") != nil else {
            let result = try CommandRunner.ddkpi([
                "--db", database, "review", "--quarter", "2025Q2", "--format", "pdf", "--output", path,
            ])
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(result.stderr.contains("apt-get install chromium"), result.stderr)
            print("notice: no chromium installed; checked only the message that asks for it")
            return
        }
        let result = try CommandRunner.ddkpi([
            "--db", database, "review", "--quarter", "2025Q2", "--format", "pdf", "--output", path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let pdf = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertTrue(pdf.starts(with: Array("%PDF".utf8)))
        let text = String(decoding: pdf, as: UTF8.self)
        let pages = Self.pageCount(text)
        XCTAssertGreaterThanOrEqual(
            pages, 10, "the summary, then 6 stores, 2 regions and the company, each from a new page")
        if let pdftotext = Self.tool("pdftotext") {
            let first = try scratchPath("review-page-1.txt")
            XCTAssertEqual(try Self.run(pdftotext, ["-f", "1", "-l", "1", path, first]), 0)
            let page = try String(contentsOfFile: first, encoding: .utf8)
            for text in [
                "All stores — 2025Q2 at a glance", "Stores by quarter sales % to target", "page 1 of \(pages)",
                "data through 2025-06-30",
            ] {
                XCTAssertTrue(page.contains(text), "page 1: \(text)")
            }
        }
    }

    func testPDFWithoutABrowserAsksForChromium() throws {
        let database = try sampleDatabase()
        let path = try scratchPath("none.pdf")
        let result = try CommandRunner.ddkpi(
            ["--db", database, "review", "--quarter", "2025Q2", "--format", "pdf", "--output", path],
            environment: ["PATH": "/nonexistent", "DDKPI_CHROMIUM": ""])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("install Debian's package with: apt-get install chromium"), result.stderr)
        let missing = try CommandRunner.ddkpi(["--db", database, "kpi", "--as-of", "2025-06-15", "--format", "xlsx"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("--format xlsx writes a file: give --output FILE"), missing.stderr)
    }

    func testKPIAsHTMLAndAsOneWorkbookSheet() throws {
        let database = try sampleDatabase()
        let html = try CommandRunner.ddkpi([
            "--db", database, "kpi", "--as-of", "2025-06-15", "--region", "East", "--format", "html",
        ])
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertTrue(html.stdout.contains("<h1>KPIs as of 2025-06-15</h1>"))
        XCTAssertTrue(
            html.stdout.contains("<th scope=\"colgroup\" colspan=\"3\">WTD 2025-06-09 to 2025-06-15</th>"), html.stdout)
        XCTAssertEqual(
            html.stdout.components(separatedBy: "<section class=\"scope\">").count - 1, 4, "3 stores and the region")
        let path = try scratchPath("kpi.xlsx")
        let written = try CommandRunner.ddkpi([
            "--db", database, "kpi", "--as-of", "2025-06-15", "--region", "East", "--format", "xlsx", "--output", path,
        ])
        XCTAssertEqual(written.status, 0, written.stderr)
        let sheets = try CommandRunner.ddkpi(["sheets", path])
        XCTAssertEqual(sheets.stdout, "0\tSummary\tvisible\n1\tKPI\tvisible\n")
        let summary = try CommandRunner.ddkpi(["dump", path, "--format", "csv"]).stdout
        XCTAssertTrue(
            summary.contains("Scope,MTD sales,Target,% to target,vs target,Pace,pace ▲/▼\n08 Natick (East),"), summary)
        let rows = try CommandRunner.ddkpi(["dump", path, "--sheet", "KPI", "--format", "csv"]).stdout.split(
            separator: "\n")
        XCTAssertEqual(rows.count, 1 + 4 * 4 * 9, "scope × period × metric")
        XCTAssertEqual(
            rows[0],
            "Scope,Period,Start,End,Metric,Actual,Target,% to target,vs target,LY,% vs LY,vs LY,Projected,Projected % to target"
        )
        XCTAssertTrue(rows[1].hasPrefix("08 Natick (East),WTD,2025-06-09,2025-06-15,Sales,"), String(rows[1]))
        let csv = try CommandRunner.ddkpi([
            "--db", database, "kpi", "--as-of", "2025-06-15", "--region", "East", "--format", "csv",
        ])
        let mtdSales = try XCTUnwrap(
            Self.fields(csv.stdout).first { $0[0] == "08" && $0[1] == "MTD" && $0[4] == "totalSales" })
        let sheetRow = try XCTUnwrap(
            Self.fields(rows.joined(separator: "\n")).first {
                $0[0] == "08 Natick (East)" && $0[1] == "MTD" && $0[4] == "Sales"
            })
        XCTAssertEqual(Double(sheetRow[12]), Self.stored(mtdSales[10]), "projected, as the CSV's")
        XCTAssertEqual(Double(sheetRow[13]), Self.stored(mtdSales[11]), "projected % to target, as the CSV's")
    }

    /// `employees` and `merch` as workbooks: a sheet per scope in report order, and the values
    /// of their CSV output to 16 significant digits.
    func testEmployeesAndMerchAsWorkbooks() throws {
        let database = try sampleDatabase()
        let employees = try scratchPath("employees.xlsx")
        let arguments = ["--db", database, "employees", "--as-of", "2025-06-30", "--period", "QTD"]
        XCTAssertEqual(try CommandRunner.ddkpi(arguments + ["--format", "xlsx", "--output", employees]).status, 0)
        let sheets = try CommandRunner.ddkpi(["sheets", employees]).stdout.split(separator: "\n").map {
            $0.split(separator: "\t")[1]
        }
        XCTAssertEqual(
            sheets,
            [
                "08 Natick (East)", "10 Framingham (East)", "12 Burlington (East)", "21 Warwick (South)",
                "23 Dartmouth (South)",
                "27 Hyannis (South)", "All stores — top 10",
            ])
        let dumped = Self.fields(
            try CommandRunner.ddkpi(["dump", employees, "--sheet", "08 Natick (East)", "--format", "csv"]).stdout)
        XCTAssertEqual(dumped.first?.first, "\"08 Natick (East) — associates", "the sheet's title")
        XCTAssertEqual(dumped.dropFirst().first?.first, "2025-04-01 to 2025-06-30 · data through 2025-06-30")
        let rows = Array(dumped.dropFirst(2))
        XCTAssertEqual(
            rows.first,
            [
                "#", "ID", "Name", "Sales", "Trans", "Items", "Avg sale", "UPT", "CCP %", "GP %", "Share", "LY sales",
                "vs LY", "vs LY ▲/▼", "Projected",
            ])
        let csv = Self.fields(try CommandRunner.ddkpi(arguments + ["--format", "csv"]).stdout)
        let first = try XCTUnwrap(csv.first { $0[0] == "08" && $0[1] == "1" && $0[4] == "totalSales" })
        XCTAssertEqual(rows[1][1], first[2], "the rank-1 associate's id")
        XCTAssertEqual(Double(rows[1][3]), Self.stored(first[5]), "sales")
        XCTAssertEqual(Double(rows[1][11]), Self.stored(first[6]), "LY sales")
        XCTAssertEqual(Double(rows[1][12]), Self.stored(first[7]), "% vs LY")
        XCTAssertTrue(rows[1][13].hasPrefix("▲") || rows[1][13].hasPrefix("▼"), String(rows[1][13]))

        let merch = try scratchPath("merch.xlsx")
        let merchArguments = ["--db", database, "merch", "--quarter", "2025Q2", "--by", "vendor", "--top", "5"]
        XCTAssertEqual(try CommandRunner.ddkpi(merchArguments + ["--format", "xlsx", "--output", merch]).status, 0)
        let vendors = Self.fields(try CommandRunner.ddkpi(["dump", merch, "--format", "csv"]).stdout).dropFirst(2)
        let merchCSV = Self.fields(try CommandRunner.ddkpi(merchArguments + ["--format", "csv"]).stdout).dropFirst()
        XCTAssertEqual(vendors.count - 1, merchCSV.filter { $0[0] == "08" }.count)
        for (sheet, csv) in zip(vendors.dropFirst(), merchCSV) {
            XCTAssertEqual(sheet[1], csv[5], "the vendor's name")
            XCTAssertEqual(Double(sheet[2]), Self.stored(csv[6]), "sales of \(csv[5])")
        }
        if let soffice = Self.tool("soffice") {
            let output = URL(fileURLWithPath: try scratchPath("libreoffice-rankings"))
            XCTAssertEqual(
                try Self.run(soffice, ["--headless", "--convert-to", "pdf", "--outdir", output.path, employees]), 0)
            XCTAssertTrue(
                try Data(contentsOf: output.appendingPathComponent("employees.pdf")).starts(with: Array("%PDF".utf8)))
        }
    }

    /// `employees` and `merch` as pages: a section per scope; as PDF, a page per scope at least.
    func testEmployeesAndMerchAsPagesAndPDF() throws {
        let database = try sampleDatabase()
        let html = try CommandRunner.ddkpi([
            "--db", database, "merch", "--quarter", "2025Q2", "--by", "category", "--format", "html",
        ])
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertEqual(html.stdout.components(separatedBy: "<section class=\"scope\">").count - 1, 9)
        XCTAssertTrue(html.stdout.contains("<th scope=\"row\" class=\"text\">Fashion</th>"), html.stdout)
        guard Self.tool("chromium") != nil || Self.tool("chromium-browser") != nil else {
            return print("notice: no chromium installed; employees PDF not checked")
        }
        let path = try scratchPath("employees.pdf")
        let result = try CommandRunner.ddkpi(
            [
                "--db", database, "employees", "--as-of", "2025-06-30", "--period", "QTD", "--format", "pdf",
                "--output", path,
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("%PDF"))
        let pages = Self.pageCount(text)
        XCTAssertLessThan(pages, 7, "short scopes share pages")
        if let pdftotext = Self.tool("pdftotext") {
            for number in 1...pages {
                let output = try scratchPath("employees-page.txt")
                XCTAssertEqual(try Self.run(pdftotext, ["-f", "\(number)", "-l", "\(number)", path, output]), 0)
                let page = try String(contentsOfFile: output, encoding: .utf8)
                XCTAssertTrue(page.contains("page \(number) of \(pages)"), "page \(number)'s footer")
                XCTAssertTrue(page.contains("$"), "page \(number) holds values, not only headings")
            }
        }
        let missing = try CommandRunner.ddkpi([
            "--db", database, "merch", "--quarter", "2025Q2", "--by", "vendor", "--format", "pdf",
        ])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("--format pdf writes a file: give --output FILE"), missing.stderr)
    }

    /// The pages of a PDF: its `/Type /Page` objects (not the `/Type /Pages` tree).
    private static func pageCount(_ pdf: String) -> Int {
        pdf.components(separatedBy: "/Type /Page").count - pdf.components(separatedBy: "/Type /Pages").count
    }

    /// An executable on the PATH.
    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
