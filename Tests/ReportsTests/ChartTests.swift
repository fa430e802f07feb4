import CivilCalendar
import Foundation
import XCTest

@testable import Reports

final class LinearScaleTests: XCTestCase {
    func testDomainWidensToRoundStepsAndZero() {
        let scale = LinearScale(covering: [282_914, 893_500], ticks: 5, pixels: (from: 200, to: 0))
        XCTAssertEqual(scale.step, 200_000)
        XCTAssertEqual(scale.lower, 0)
        XCTAssertEqual(scale.upper, 1_000_000)
        XCTAssertEqual(scale.ticks, [0, 200_000, 400_000, 600_000, 800_000, 1_000_000])
        XCTAssertEqual(scale(0), 200)
        XCTAssertEqual(scale(500_000), 100)
    }

    func testNegativeValuesAndAFlatDomain() {
        let scale = LinearScale(covering: [-0.104, 0.202], ticks: 6, pixels: (from: 0, to: 400))
        XCTAssertEqual(scale.step, 0.1)
        XCTAssertEqual(scale.lower, -0.2, accuracy: 1e-12)
        XCTAssertEqual(scale.upper, 0.3, accuracy: 1e-12)
        XCTAssertEqual(scale(0), 160, accuracy: 1e-9)
        let flat = LinearScale(covering: [0, 0], pixels: (from: 0, to: 100))
        XCTAssertEqual(flat.lower, 0)
        XCTAssertEqual(flat.upper, 1)
        XCTAssertTrue(flat(0).isFinite)
    }

    func testNiceSteps() {
        XCTAssertEqual(LinearScale.niceStep(0.013), 0.02, accuracy: 1e-15)
        XCTAssertEqual(LinearScale.niceStep(3), 5)
        XCTAssertEqual(LinearScale.niceStep(7), 10)
        XCTAssertEqual(LinearScale.niceStep(100), 100)
        XCTAssertEqual(LinearScale.niceStep(0), 1)
    }
}

final class ColumnChartTests: XCTestCase {
    private func chart(target: [Double?]) -> ColumnChart {
        ColumnChart(
            title: "Monthly sales: actual vs target", categories: ["2025-04", "2025-05", "2025-06"],
            series: [
                .init(name: "Actual", className: "actual", values: [100, 200, 300]),
                .init(name: "Target", className: "target", values: target),
            ],
            categoryTitle: "Month", valueTitle: "Sales ($)", valueLabel: { NumberText.formatted($0, .money) })
    }

    func testBarsStandOnTheZeroLineAndScaleWithTheirValues() {
        let chart = chart(target: [150, 150, 150])
        let bars = chart.bars
        XCTAssertEqual(bars.count, 6)
        let baseline = chart.scale(0)
        for bar in bars { XCTAssertEqual(bar.y + bar.height, baseline, accuracy: 1e-9) }
        let april = bars.filter { $0.category == 0 }
        XCTAssertEqual(april.map(\.series), [0, 1])
        XCTAssertEqual(april[1].height / april[0].height, 1.5, accuracy: 1e-9)
        XCTAssertLessThan(april[0].x + april[0].width, april[1].x + 1e-9, "clustered side by side")
    }

    func testAMissingTargetHasNoBarAndTheSVGIsLabelled() {
        let chart = chart(target: [nil, 150, nil])
        XCTAssertEqual(chart.bars.count, 4)
        let svg = chart.svg().render()
        for text in [
            "<title>Monthly sales: actual vs target</title>", ">Sales ($)</text>", ">Month</text>", ">Actual</text>",
            ">Target</text>", ">2025-05</text>", ">$300</text>", "role=\"img\"",
        ] {
            XCTAssertTrue(svg.contains(text), text)
        }
    }
}

final class DivergingBarChartTests: XCTestCase {
    func testNegativeBarsGoLeftPositiveRightWithTheirChangeText() {
        let chart = DivergingBarChart(
            title: "Sales % to target per store, quarter", valueTitle: "% to target",
            rows: [
                .init(label: "08 Natick", value: 0.024), .init(label: "21 Warwick", value: -0.069),
                .init(label: "30 New", value: nil),
            ])
        let zero = chart.scale(0)
        guard let up = chart.bars[0], let down = chart.bars[1] else { return XCTFail("bars with values") }
        XCTAssertEqual(up.x, zero, accuracy: 1e-9)
        XCTAssertFalse(up.isNegative)
        XCTAssertEqual(down.x + down.width, zero, accuracy: 1e-9)
        XCTAssertTrue(down.isNegative)
        XCTAssertNil(chart.bars[2])
        XCTAssertLessThan(up.y, down.y)
        let svg = chart.svg().render()
        for text in ["▲ +2.4%", "▼ −6.9%", "no target", ">% to target</text>", ">30 New</text>", "class=\"down\""] {
            XCTAssertTrue(svg.contains(text), text)
        }
    }
}

final class StoryChartTests: XCTestCase {
    /// The axis title sits left of the widest tick label (`$1,000,000`), never over it.
    func testTheValueAxisReservesRoomForItsLabels() {
        let chart = ColumnChart(
            title: "Monthly sales", categories: ["2025-04"],
            series: [.init(name: "Actual", className: "actual", values: [1_600_000])], categoryTitle: "Month",
            valueTitle: "Sales ($)", valueLabel: { NumberText.formatted($0, .money) })
        let widest = Double("$2,000,000".count) * DivergingBarChart.characterWidth
        XCTAssertGreaterThanOrEqual(chart.plot.left - 6 - widest, 20, "the tick label starts right of the axis title")
    }

    /// Chart marks: 3:1 against white, and actual against target (SPEC section 20).
    func testThePaletteHasEnoughContrast() {
        for colour in [
            ChartPalette.actual, ChartPalette.target, ChartPalette.lastYear, ChartPalette.up, ChartPalette.down,
        ] {
            XCTAssertGreaterThanOrEqual(ChartPalette.contrast(colour, 0xFFFFFF), 3, ChartPalette.css(colour))
        }
        XCTAssertGreaterThanOrEqual(ChartPalette.contrast(ChartPalette.actual, ChartPalette.target), 3)
        XCTAssertEqual(ChartPalette.contrast(0x000000, 0xFFFFFF), 21, accuracy: 1e-9)
        XCTAssertLessThan(ChartPalette.contrast(0xB8C4D1, 0xFFFFFF), 3, "the old target grey")
    }

    /// Inside the neutral band a change keeps its ▲/▼ and loses its colour.
    func testTheNeutralBandLeavesSmallChangesUncoloured() {
        XCTAssertEqual(ChangeTone(-0.001, band: 0.005), .level)
        XCTAssertEqual(ChangeTone(-0.005, band: 0.005), .down)
        XCTAssertEqual(ChangeTone(0.024, band: 0.005), .up)
        XCTAssertEqual(ChangeTone(nil, band: 0.005), .level)
        XCTAssertEqual(ChangeTone(0.001, band: 0), .up)
    }

    func testFooterTextIsACSSStringThatCannotEndTheSheet() {
        XCTAssertEqual(DocumentPage.cssString("a\"b\\c</style>\n"), "\"a\\\"b\\\\c\\3C /style> \"")
    }

    /// Chromium's clock dates become the report's day, in place (same length, same offsets).
    func testPDFDatesAreTheReportsDay() {
        var pdf = Data("%PDF-1.4\n<</CreationDate (D:20261124001320+00'00')\n/ModDate (D:20261124001320+00'00')>>".utf8)
        let length = pdf.count
        ChromiumPrinter.stampDates(&pdf, day: CivilDate(year: 2025, month: 6, day: 30))
        XCTAssertEqual(pdf.count, length)
        XCTAssertEqual(
            String(decoding: pdf, as: UTF8.self),
            "%PDF-1.4\n<</CreationDate (D:20250630000000+00'00')\n/ModDate (D:20250630000000+00'00')>>")
    }

    /// A tagged PDF's structure ids count every DOM node the renderer ever made, in the order it
    /// made them: each becomes the rank of the element object that defines it, references and the
    /// id tree follow, so the same page prints to the same bytes whatever its DOM ids were.
    func testPDFStructureIDsFollowTheirElements() {
        func page(_ first: String, _ second: String) -> String {
            """
            21 0 obj
            <</Type /StructElem /ID (node\(first))>>
            endobj
            22 0 obj
            <</Type /StructElem /A [<</O /Table /Headers [(node\(first))]>>]>>
            endobj
            23 0 obj
            <</Type /StructElem /ID (node\(second))>>
            endobj
            30 0 obj
            <</Limits [(node\(min(first, second))) (node\(max(first, second)))]
            /Names [(node\(min(first, second))) \(first < second ? 21 : 23) 0 R (node\(max(first, second))) \(first < second ? 23 : 21) 0 R]>>
            endobj
            (node12)
            """
        }
        let printed = page("00000131", "00000007")
        var pdf = Data(printed.utf8)
        ChromiumPrinter.renumberStructureIDs(&pdf)
        XCTAssertEqual(pdf.count, printed.utf8.count, "every offset stays")
        XCTAssertEqual(String(decoding: pdf, as: UTF8.self), page("00000001", "00000002"))
        // The same page printed by a renderer that made the nodes in the other order.
        var other = Data(page("00000005", "00000009").utf8)
        ChromiumPrinter.renumberStructureIDs(&other)
        XCTAssertEqual(other, pdf)
    }
}
