/// Horizontal bars around a zero line: negative values to the left, positive to the right,
/// each labelled with its value text beside the bar (never colour alone), and an optional note
/// at the right edge (`vs LY ▲ +3.1%`). Room for the labels is reserved from their length.
public struct DivergingBarChart {
    /// One bar: its label, value (`nil`: no bar, `missingText` instead) and note.
    public struct Row: Sendable {
        public var label: String
        public var value: Double?
        /// Text at the row's right edge, coloured by `noteValue`'s change tone when there is one.
        public var note: String?
        public var noteValue: Double?

        public init(label: String, value: Double?, note: String? = nil, noteValue: Double? = nil) {
            self.label = label
            self.value = value
            self.note = note
            self.noteValue = noteValue
        }
    }

    /// How bars and their value texts are drawn.
    public enum Style {
        /// Changes: `▲ +2.4%` texts; green above zero, red below, grey inside the neutral band.
        case change
        /// Amounts of one kind (sales, share): one colour, the value formatted by `label`.
        case amount(label: (Double) -> String)
    }

    /// A bar's rectangle and where its label goes.
    public struct Bar: Equatable {
        public var x, y, width, height: Double
        public var isNegative: Bool
    }

    public var title: String
    public var valueTitle: String
    public var rows: [Row]
    public var style: Style
    public var missingText = "no target"
    /// Changes (bars of `.change`, and notes) smaller than this fraction are not coloured.
    public var neutralBand = 0.0
    public var width = 540.0
    public var rowHeight = 20.0

    public init(title: String, valueTitle: String, rows: [Row], style: Style = .change) {
        self.title = title
        self.valueTitle = valueTitle
        self.rows = rows
        self.style = style
    }

    /// Pixels per character of an 11-pixel label, a generous average for DejaVu Sans.
    static let characterWidth = 6.6

    /// The plot's extent: the longest label on the left, the longest value text and note on the right.
    var plot: (left: Double, right: Double, top: Double) {
        let value = rows.compactMap { $0.value.map(valueText)?.count }.max() ?? 0
        let note = rows.compactMap { $0.note?.count }.max() ?? 0
        let negative = rows.contains { ($0.value ?? 0) < 0 }
        let left = labelEnd + 8 + (negative ? 4 + Self.characterWidth * Double(value) : 0)
        let right =
            width - 8 - Self.characterWidth * Double(value) - (note > 0 ? 12 + Self.characterWidth * Double(note) : 0)
        return (left, max(left + 80, right), 34)
    }

    /// Where the row labels end (right-aligned there).
    var labelEnd: Double { 8 + Self.characterWidth * Double(min(rows.map(\.label.count).max() ?? 0, 40)) }

    var height: Double { plot.top + rowHeight * Double(max(1, rows.count)) + 44 }

    var scale: LinearScale {
        // A tick label every 70 pixels or more, so labels never run together.
        let plot = self.plot
        return LinearScale(
            covering: rows.compactMap(\.value), ticks: max(2, min(6, Int((plot.right - plot.left) / 70))),
            pixels: (plot.left, plot.right))
    }

    /// The text beside a bar.
    func valueText(_ value: Double) -> String {
        switch style {
        case .change: return NumberText.change(value)
        case .amount(let label): return label(value)
        }
    }

    /// The CSS class of a bar and of its value text.
    func classes(_ value: Double) -> (bar: String, text: String) {
        switch style {
        case .amount: return ("actual", "value")
        case .change:
            switch ChangeTone(value, band: neutralBand) {
            case .up: return ("up", "value up-text")
            case .down: return ("down", "value down-text")
            case .level: return ("flat", "value")
            }
        }
    }

    /// The bar of each row, `nil` for a row without a value.
    public var bars: [Bar?] {
        let (scale, plot) = (self.scale, self.plot)
        return rows.enumerated().map { index, row in
            guard let value = row.value else { return nil }
            let y = plot.top + rowHeight * Double(index) + 3
            return Bar(
                x: min(scale(value), scale(0)), y: y, width: abs(scale(value) - scale(0)), height: rowHeight - 6,
                isNegative: value < 0)
        }
    }

    func svg() -> SVG.Content {
        // Each is computed from every row: once, not per row.
        let (scale, plot, labelEnd) = (self.scale, self.plot, self.labelEnd)
        let bottom = plot.top + rowHeight * Double(max(1, rows.count))
        var nodes = [SVG.text(title, x: 4, y: 18, anchor: "start", className: "chart-title")]
        let tickLabel: (Double) -> String
        switch style {
        case .change: tickLabel = { NumberText.formatted($0, .percent) }
        case .amount(let label): tickLabel = label
        }
        nodes += ChartAxis(scale: scale, side: .bottom, title: valueTitle, label: tickLabel)
            .svg(across: plot.top...bottom)
        for ((row, bar), index) in zip(zip(rows, bars), rows.indices) {
            let middle = plot.top + rowHeight * (Double(index) + 0.5) + 4
            nodes.append(SVG.text(row.label, x: labelEnd, y: middle, anchor: "end", className: "label"))
            if let note = row.note {
                nodes.append(
                    SVG.text(
                        note, x: width - 4, y: middle, anchor: "end",
                        className: "note " + ChangeTone(row.noteValue, band: neutralBand).className))
            }
            guard let bar, let value = row.value else {
                nodes.append(SVG.text(missingText, x: scale(0) + 4, y: middle, anchor: "start", className: "note"))
                continue
            }
            let classes = self.classes(value)
            nodes.append(SVG.rect(x: bar.x, y: bar.y, width: bar.width, height: bar.height, className: classes.bar))
            let text = valueText(value)
            nodes.append(
                bar.isNegative
                    ? SVG.text(text, x: bar.x - 4, y: middle, anchor: "end", className: classes.text)
                    : SVG.text(text, x: bar.x + bar.width + 4, y: middle, anchor: "start", className: classes.text))
        }
        return SVG.root(width: width, height: height, title: title, nodes)
    }
}
