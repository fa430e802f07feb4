import CXLSXWriter
import KPI

/// The cell formats of a report workbook, added once: a bold header, each metric's number
/// format, and percents plain or with the green/red fill of a change against target.
struct XLSXStyles {
    typealias Format = UnsafeMutablePointer<lxw_format>

    let header: Format
    let numberHeader: Format
    /// A sheet's title line.
    let title: Format
    /// The ▲/▼ text beside % to target, right-aligned like the numbers.
    let changeText: Format
    let percent: Format
    /// A date cell: `yyyy-mm-dd`.
    let date: Format
    /// Changes, signed (`+2.4%`), plain or with the green/red fill.
    let changeLevel, changeAbove, changeBelow: Format
    private let money, moneyWithCents, count, decimal: Format
    /// Changes smaller than this fraction are not filled (`DocumentOptions.neutralBand`).
    let neutralBand: Double

    init(_ workbook: XLSXWorkbookWriter, neutralBand: Double = DocumentOptions().neutralBand) throws {
        self.neutralBand = neutralBand
        func bold(_ alignment: lxw_format_alignments) throws -> Format {
            try workbook.addFormat { format in
                format_set_bold(format)
                format_set_bottom(format, UInt8(LXW_BORDER_THIN.rawValue))
                format_set_align(format, UInt8(alignment.rawValue))
                format_set_align(format, UInt8(LXW_ALIGN_VERTICAL_BOTTOM.rawValue))
                format_set_text_wrap(format)
            }
        }
        header = try bold(LXW_ALIGN_LEFT)
        title = try workbook.addFormat { format in
            format_set_bold(format)
            format_set_font_size(format, 14)
        }
        numberHeader = try bold(LXW_ALIGN_RIGHT)
        changeText = try workbook.addFormat { format_set_align($0, UInt8(LXW_ALIGN_RIGHT.rawValue)) }
        func numbers(_ pattern: String, fill: (background: lxw_color_t, font: lxw_color_t)? = nil) throws -> Format {
            try workbook.addFormat { format in
                format_set_num_format(format, pattern)
                if let fill {
                    format_set_bg_color(format, fill.background)
                    format_set_font_color(format, fill.font)
                }
            }
        }
        money = try numbers(Self.moneyFormat(decimals: 0))
        moneyWithCents = try numbers(Self.moneyFormat(decimals: 2))
        count = try numbers("#,##0")
        decimal = try numbers("0.00")
        percent = try numbers("0.0%")
        date = try numbers("yyyy-mm-dd")
        // Excel's own "Good" and "Bad" cell styles.
        changeLevel = try numbers(Self.signedPercent)
        changeAbove = try numbers(Self.signedPercent, fill: (0xC6EFCE, 0x006100))
        changeBelow = try numbers(Self.signedPercent, fill: (0xFFC7CE, 0x9C0006))
    }

    /// The number format of money with `decimals` decimals in the current `NumberStyle`.
    static func moneyFormat(decimals: Int) -> String {
        let style = NumberStyle.current
        guard style == .standard else { return style.workbookMoneyFormat(decimals: decimals) }
        return decimals > 0 ? "$#,##0." + String(repeating: "0", count: decimals) : "$#,##0"
    }

    /// A change with its sign, as its ▲/▼ text writes it: `+2.4%`, `−4.8%`, `0.0%`.
    static let signedPercent = "+0.0%;\"−\"0.0%;0.0%"

    /// The number format of a metric's actual, target and LY.
    func number(_ format: MetricFormat) -> Format {
        switch format {
        case .money: return money
        case .moneyWithCents: return moneyWithCents
        case .count: return count
        case .decimal: return decimal
        case .percent: return percent
        }
    }

    /// A change (% to target, % vs LY), signed: green above, red below, plain inside the neutral
    /// band — the same rounding as its ▲/▼ text.
    func change(_ value: Double?) -> Format {
        switch ChangeTone(value, band: neutralBand) {
        case .up: return changeAbove
        case .down: return changeBelow
        case .level: return changeLevel
        }
    }
}
