import Foundation
import TestSupport
import Warehouse
import XCTest

@testable import Delivery

/// Mail and webhooks through libcurl against receivers on 127.0.0.1 (SPEC section 24): an
/// attachment arrives intact, ids travel as headers, secrets stay out of errors.
final class CurlTransportTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func settings(smtpPort: Int) -> DeliverySettings {
        var settings = DeliverySettings()
        settings.smtp = "smtp://127.0.0.1:\(smtpPort)"
        settings.from = "ddkpi@example.com"
        settings.timeoutSeconds = 5
        return settings
    }

    func testAnAttachmentArrivesIntact() throws {
        let server = try LocalReceiver.smtp(in: directory)
        defer { server.stop() }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<150_000).map { index in
            index < 256 ? UInt8(index) : UInt8.random(in: 0...255, using: &generator)
        }
        let message = OutboxMessage(
            id: 1, messageID: "3f1c-test", target: "email:dir08@example.com", subject: "Pack 08 — 2025Q2 ▲",
            body: "Data through 2025-06-30.\nNo alarms.\n",
            attachments: [OutboxAttachment(name: "review-2025Q2.pdf", contentType: "application/pdf", bytes: bytes)])
        try CurlTransport(settings: settings(smtpPort: server.port)).deliver(message)
        let received = try XCTUnwrap(try server.received().first)
        XCTAssertEqual(received["from"] as? String, "ddkpi@example.com")
        XCTAssertEqual(received["to"] as? [String], ["dir08@example.com"])
        let raw = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(received["data"] as? String)))
        let text = String(decoding: raw, as: UTF8.self)
        XCTAssertTrue(text.contains("Message-ID: <3f1c-test@ddkpi>\r\n"), text)
        XCTAssertTrue(text.contains("Subject: =?UTF-8?B?"), text)
        let start = try XCTUnwrap(
            text.range(of: "filename=\"review-2025Q2.pdf\"\r\nContent-Transfer-Encoding: base64\r\n\r\n"))
        let end = try XCTUnwrap(text.range(of: "\r\n--", range: start.upperBound..<text.endIndex))
        let decoded = try XCTUnwrap(
            Data(base64Encoded: String(text[start.upperBound..<end.lowerBound]), options: .ignoreUnknownCharacters))
        XCTAssertEqual(Array(decoded), bytes)
    }

    func testAWebhookCarriesItsIdempotencyKey() throws {
        let receiver = try LocalReceiver.http(in: directory)
        defer { receiver.stop() }
        var settings = DeliverySettings()
        settings.webhooks["ops"] = "http://127.0.0.1:\(receiver.port)/hook"
        let message = OutboxMessage(id: 1, messageID: "key-1", target: "webhook:ops", subject: "s", body: "{\"a\":1}")
        try CurlTransport(settings: settings).deliver(message)
        let request = try XCTUnwrap(try receiver.received().first)
        XCTAssertEqual((request["headers"] as? [String: String])?["Idempotency-Key"], "key-1")
        XCTAssertEqual(request["body"] as? String, "{\"a\":1}")
    }

    func testSecretsStayOutOfErrors() throws {
        var settings = settings(smtpPort: LocalReceiver.closedPort())
        settings.user = "mailer"
        settings.passwordEnvironment = "DDKPI_TEST_SMTP_SECRET"
        let message = OutboxMessage(id: 1, messageID: "m", target: "email:a@example.com", subject: "s", body: "b")
        XCTAssertThrowsError(try CurlTransport(settings: settings).deliver(message)) { error in
            XCTAssertEqual("\(error)", "[delivery] password_env: the environment has no DDKPI_TEST_SMTP_SECRET")
        }
        setenv("DDKPI_TEST_SMTP_SECRET", "hunter2-secret", 1)
        defer { unsetenv("DDKPI_TEST_SMTP_SECRET") }
        XCTAssertThrowsError(try CurlTransport(settings: settings).deliver(message)) { error in
            XCTAssertTrue("\(error)".hasPrefix("curl: "), "\(error)")
            XCTAssertFalse("\(error)".contains("hunter2"), "\(error)")
        }
        var hooks = DeliverySettings()
        hooks.webhooks["ops"] = "http://127.0.0.1:\(LocalReceiver.closedPort())/secret-token-path"
        let post = OutboxMessage(id: 2, messageID: "w", target: "webhook:ops", subject: "s", body: "{}")
        XCTAssertThrowsError(try CurlTransport(settings: hooks).deliver(post)) { error in
            XCTAssertFalse("\(error)".contains("secret-token-path"), "\(error)")
        }
        let unknown = OutboxMessage(id: 3, messageID: "u", target: "webhook:nobody", subject: "s", body: "{}")
        XCTAssertThrowsError(try CurlTransport(settings: hooks).deliver(unknown)) { error in
            XCTAssertEqual("\(error)", "webhook:nobody: no webhook nobody in the config's [webhooks]")
        }
    }

    func testLoopbackHosts() {
        XCTAssertTrue(DeliverySettings.isLoopback("smtp://127.0.0.1:25"))
        XCTAssertTrue(DeliverySettings.isLoopback("smtp://localhost:587"))
        XCTAssertTrue(DeliverySettings.isLoopback("smtp://[::1]:587"))
        XCTAssertFalse(DeliverySettings.isLoopback("smtp://mail.example.com:587"))
        XCTAssertFalse(DeliverySettings.isLoopback("smtp://127.example.com:587"))
    }

    /// A plain SMTP server that must offer STARTTLS and does not: libcurl refuses to send in
    /// clear (the loopback exemption is turned off to see it on 127.0.0.1).
    func testStartTLSIsRequiredOffLoopback() throws {
        XCTAssertTrue(DeliverySettings().requiresStartTLS("smtp://mail.example.com:587"))
        XCTAssertFalse(DeliverySettings().requiresStartTLS("smtp://127.0.0.1:587"))
        let server = try LocalReceiver.smtp(in: directory)
        defer { server.stop() }
        var settings = settings(smtpPort: server.port)
        settings.exemptsLoopback = false
        let message = OutboxMessage(id: 1, messageID: "m", target: "email:a@example.com", subject: "s", body: "b")
        XCTAssertThrowsError(try CurlTransport(settings: settings).deliver(message)) { error in
            XCTAssertTrue("\(error)".contains("curl: "), "\(error)")
        }
        XCTAssertEqual(try server.received().count, 0)
        settings.requireTLS = false
        try CurlTransport(settings: settings).deliver(message)
        XCTAssertEqual(try server.received().count, 1)
    }
}
