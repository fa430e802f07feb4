import Foundation
import TestSupport
import XCTest

/// `currency` and `locale` (SPEC section 26): text and documents write the config's money and
/// numbers; CSV and JSON stay the same plain numbers.
final class CurrencyCommandTests: XCTestCase {
    static let sample = IngestedOnce(fileName: "sample.sqlite", ingest: GoldenReportTests.ingestSamples(into:))

    override class func tearDown() {
        sample.remove()
        super.tearDown()
    }

    private func ddkpi(_ arguments: [String], config: String? = nil) throws -> CommandRunner.Result {
        var options = ["--db", try Self.sample.path()]
        if let config {
            let path = try Self.sample.path() + ".toml"
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            options += ["--config", path]
        }
        return try CommandRunner.ddkpi(options + arguments, environment: ["NO_COLOR": "1"])
    }

    private let euros = "currency = \"EUR\"\nlocale = \"de-DE\"\n"

    func testEurosInGermanInTextAndDocumentsAndPlainInCSVAndJSON() throws {
        let kpi = ["kpi", "--as-of", "2025-06-15", "--region", "East"]
        let text = try ddkpi(kpi, config: euros)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("2.135.674\u{a0}€ ▲ +10,5\u{a0}%"), "East's QTD sales: \(text.stdout)")
        XCTAssertFalse(text.stdout.contains("$"))

        for format in ["csv", "json"] {
            let plain = try ddkpi(kpi + ["--format", format])
            XCTAssertEqual(try ddkpi(kpi + ["--format", format], config: euros).stdout, plain.stdout, format)
        }

        let html = try ddkpi(
            ["review", "--quarter", "2025Q2", "--as-of", "2025-06-15", "--store", "08", "--format", "html"],
            config: euros)
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertTrue(html.stdout.contains("777.302\u{a0}€"), "08's sales to 06-15")
        XCTAssertTrue(html.stdout.contains("Sales (€)"), "the chart's axis")
        XCTAssertFalse(html.stdout.contains("$"))
    }

    func testAnUnknownCurrencyIsAConfigError() throws {
        let result = try ddkpi(["kpi"], config: "currency = \"EURO\"\n")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.contains("currency = \"EURO\": expected an ISO 4217 code such as USD or EUR"), result.stderr)
    }
}
