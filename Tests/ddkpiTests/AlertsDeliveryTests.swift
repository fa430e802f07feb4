import Foundation
import TestSupport
import XCTest

/// `alerts --send` and `outbox` through the binary against real receivers on 127.0.0.1 (SPEC
/// section 24): an aiosmtpd SMTP server and an HTTP receiver; state and outbox on both backends.
final class AlertsDeliveryTests: XCTestCase {
    private var directory: URL!
    private var receivers: [LocalReceiver] = []

    override func setUpWithError() throws {
        _ = try LocalReceiver.python()
        directory = try TestPaths.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        for receiver in receivers { receiver.stop() }
        try FileManager.default.removeItem(at: directory)
    }

    private func backends() throws -> [String] {
        let postgres: [String]
        do { postgres = [try TestWarehouses.postgresWarehouseURL()] } catch is XCTSkip { postgres = [] }
        return [directory.appendingPathComponent("w-\(UUID().uuidString).sqlite").path] + postgres
    }

    private func http(failures: Int = 0, delay: Double = 0) throws -> LocalReceiver {
        let receiver = try LocalReceiver.http(in: directory, failures: failures, delay: delay)
        receivers.append(receiver)
        return receiver
    }

    private func smtp() throws -> LocalReceiver {
        let receiver = try LocalReceiver.smtp(in: directory)
        receivers.append(receiver)
        return receiver
    }

    /// A config mailing `dir21@example.com` and posting to `ops` when store 21's week-to-date
    /// sales are under $20,000 (true on 2025-06-16 and 17, not on 2025-06-20).
    private func config(webhookPort: Int, smtpPort: Int, retries: Int = 5) throws -> String {
        let text = """
            [delivery]
            smtp = "smtp://127.0.0.1:\(smtpPort)"
            from = "ddkpi@example.com"
            retries = \(retries)
            backoff_seconds = 0.05
            timeout_seconds = 5
            [webhooks]
            ops = "http://127.0.0.1:\(webhookPort)/hook"
            [[alert]]
            name = "slow week"
            stores = ["21"]
            metric = "totalSales"
            period = "WTD"
            when = "actual < 20000"
            notify = ["email:dir21@example.com", "webhook:ops"]
            """
        return try TestPaths.write(Array(text.utf8), named: "ddkpi-\(UUID().uuidString).toml", in: directory)
    }

    private func ddkpi(_ database: String, _ config: String, _ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.ddkpi(["--db", database, "--config", config] + arguments, environment: ["NO_COLOR": "1"])
    }

    private func outbox(_ database: String, _ config: String) throws -> [[String: Any]] {
        let list = try ddkpi(database, config, ["outbox", "list", "--format", "json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
        return try XCTUnwrap(document["messages"] as? [[String: Any]])
    }

    private func body(_ request: [String: Any]) throws -> [String: Any] {
        let text = try XCTUnwrap(request["body"] as? String)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Notified when it starts firing, not again the next night, once when it resolves.
    func testNotifiesOnStartAndOnceOnResolve() throws {
        for database in try backends() {
            try GoldenReportTests.ingestSamples(into: database)
            let hook = try http()
            let mail = try smtp()
            let config = try config(webhookPort: hook.port, smtpPort: mail.port)

            let first = try ddkpi(database, config, ["alerts", "--send", "--as-of", "2025-06-16", "--format", "json"])
            XCTAssertEqual(first.status, 4, first.stderr)
            XCTAssertTrue(first.stdout.contains("\"scope\":\"21\""), first.stdout)
            XCTAssertEqual(try hook.received().count, 1)
            XCTAssertEqual(try mail.received().count, 1)
            let posted = try body(try XCTUnwrap(try hook.received().first))
            XCTAssertEqual(posted["asOf"] as? String, "2025-06-16")
            XCTAssertEqual(posted["state"] as? String, "firing")
            XCTAssertEqual(posted["value"] as? Double, 4559.98)
            let headers = try XCTUnwrap(try hook.received().first?["headers"] as? [String: String])
            let messages = try outbox(database, config)
            XCTAssertEqual(messages.count, 2)
            XCTAssertTrue(messages.allSatisfy { $0["state"] as? String == "sent" && $0["attempts"] as? Int == 1 })
            XCTAssertNotNil(headers["Idempotency-Key"])

            let second = try ddkpi(database, config, ["alerts", "--send", "--as-of", "2025-06-17"])
            XCTAssertEqual(second.status, 4, second.stderr)
            XCTAssertEqual(second.stdout, "Alerts as of 2025-06-17: 1 firing, nothing to notify\n")
            XCTAssertEqual(try hook.received().count, 1, "a second night does not notify again")
            XCTAssertEqual(try mail.received().count, 1)

            let earlier = try ddkpi(database, config, ["alerts", "--send", "--as-of", "2025-06-16"])
            XCTAssertEqual(earlier.status, 2)
            XCTAssertTrue(earlier.stderr.contains("earlier than the as-of date 2025-06-17"), earlier.stderr)

            let resolved = try ddkpi(
                database, config, ["alerts", "--send", "--as-of", "2025-06-20", "--format", "json"])
            XCTAssertEqual(resolved.status, 0, resolved.stderr)
            XCTAssertTrue(resolved.stdout.contains("\"state\":\"resolved\""), resolved.stdout)
            XCTAssertEqual(try hook.received().count, 2)
            XCTAssertEqual(try mail.received().count, 2)
            XCTAssertEqual(try body(try XCTUnwrap(try hook.received().last))["state"] as? String, "resolved")

            let after = try ddkpi(database, config, ["alerts", "--send", "--as-of", "2025-06-22"])
            XCTAssertEqual(after.status, 0, after.stderr)
            XCTAssertEqual(try hook.received().count, 2, "resolved once")
        }
    }

    /// A receiver answering 503 twice gets the message on the third attempt, with the same key.
    func testRetriesAReceiverThatFailsTwice() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        try GoldenReportTests.ingestSamples(into: database)
        let hook = try http(failures: 2)
        let mail = try smtp()
        let config = try config(webhookPort: hook.port, smtpPort: mail.port)
        let result = try ddkpi(database, config, ["alerts", "--send", "--as-of", "2025-06-16"])
        XCTAssertEqual(result.status, 4, result.stderr)
        let requests = try hook.received()
        XCTAssertEqual(requests.map { $0["status"] as? Int }, [503, 503, 200])
        let keys = Set(requests.compactMap { ($0["headers"] as? [String: String])?["Idempotency-Key"] })
        XCTAssertEqual(keys.count, 1, "every attempt carries the same Idempotency-Key")
        let webhook = try XCTUnwrap(try outbox(database, config).first { $0["target"] as? String == "webhook:ops" })
        XCTAssertEqual(webhook["state"] as? String, "sent")
        XCTAssertEqual(webhook["attempts"] as? Int, 3)
    }

    /// A receiver down for a whole run: the message stays pending (exit 1, not lost), and the
    /// next run sends it first.
    func testAReceiverDownForAWholeRun() throws {
        for database in try backends() {
            try GoldenReportTests.ingestSamples(into: database)
            let mail = try smtp()
            let down = try config(webhookPort: LocalReceiver.closedPort(), smtpPort: mail.port, retries: 2)
            let first = try ddkpi(database, down, ["alerts", "--send", "--as-of", "2025-06-16"])
            XCTAssertEqual(first.status, 1, "pending messages win over a firing alert: \(first.stderr)")
            XCTAssertTrue(first.stderr.contains("kept in the outbox for the next run: webhook:ops"), first.stderr)
            XCTAssertFalse(first.stderr.contains("/hook"), "no URL path in messages: \(first.stderr)")
            let pending = try XCTUnwrap(try outbox(database, down).first { $0["target"] as? String == "webhook:ops" })
            XCTAssertEqual(pending["state"] as? String, "pending")
            XCTAssertEqual(pending["attempts"] as? Int, 3)
            XCTAssertNotNil(pending["lastError"] as? String)
            XCTAssertEqual(try mail.received().count, 1, "the mail went; only the webhook waits")

            let hook = try http()
            let up = try config(webhookPort: hook.port, smtpPort: mail.port)
            let next = try ddkpi(database, up, ["alerts", "--send", "--as-of", "2025-06-20"])
            XCTAssertEqual(next.status, 0, next.stderr)
            let requests = try hook.received().map { try body($0) }
            XCTAssertEqual(requests.map { $0["state"] as? String }, ["firing", "resolved"], "the old message first")
            XCTAssertEqual(requests.first?["asOf"] as? String, "2025-06-16")
            XCTAssertTrue(try outbox(database, up).allSatisfy { $0["state"] as? String == "sent" })
            let retry = try ddkpi(database, up, ["outbox", "retry"])
            XCTAssertEqual(retry.status, 0, retry.stderr)
        }
    }

    /// `outbox retry` exits 1 while a destination is down; `outbox drop` gives a message up.
    func testOutboxRetryAndDrop() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        try GoldenReportTests.ingestSamples(into: database)
        let mail = try smtp()
        let down = try config(webhookPort: LocalReceiver.closedPort(), smtpPort: mail.port, retries: 0)
        XCTAssertEqual(try ddkpi(database, down, ["alerts", "--send", "--as-of", "2025-06-16"]).status, 1)
        let retry = try ddkpi(database, down, ["outbox", "retry"])
        XCTAssertEqual(retry.status, 1, retry.stderr)
        let id = try XCTUnwrap(try outbox(database, down).first { $0["state"] as? String == "pending" }?["id"] as? Int)
        let table = try ddkpi(database, down, ["outbox"])
        XCTAssertTrue(table.stdout.hasPrefix("id  target"), table.stdout)
        XCTAssertEqual(try ddkpi(database, down, ["outbox", "drop", String(id)]).status, 0)
        XCTAssertEqual(try ddkpi(database, down, ["outbox", "drop", String(id)]).status, 2)
        XCTAssertEqual(try ddkpi(database, down, ["outbox", "retry"]).status, 0)
        XCTAssertEqual(try outbox(database, down).first { $0["id"] as? Int == id }?["state"] as? String, "dropped")
    }

    /// `publish --send` mails a pack's XLSX (no PDF in the plan) to its `email`, intact, with
    /// the freshness and alarm summary in the body.
    func testPublishSendMailsThePack() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        try GoldenReportTests.ingestSamples(into: database)
        let mail = try smtp()
        let config = try config(webhookPort: LocalReceiver.closedPort(), smtpPort: mail.port)
        let plan = try TestPaths.write(
            Array(
                """
                [[pack]]
                name = "08-natick"
                stores = ["08"]
                reports = ["kpi"]
                formats = ["xlsx"]
                email = ["dir08@example.com"]
                """.utf8), named: "plan.toml", in: directory)
        let out = directory.appendingPathComponent("packs").path
        let result = try ddkpi(
            database, config, ["publish", "--plan", plan, "--out", out, "--as-of", "2025-06-15", "--send"])
        XCTAssertTrue([0, 4].contains(result.status), result.stderr)
        let received = try mail.received()
        XCTAssertEqual(received.count, 1)
        XCTAssertEqual(received.first?["to"] as? [String], ["dir08@example.com"])
        let raw = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(received.first?["data"] as? String)))
        let text = String(decoding: raw, as: UTF8.self)
        XCTAssertTrue(text.contains("Subject: ddkpi pack 08-natick: 2025Q2 as of 2025-06-15\r\n"), text)
        let bodyStart = try XCTUnwrap(text.range(of: "charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"))
        let bodyEnd = try XCTUnwrap(text.range(of: "\r\n--", range: bodyStart.upperBound..<text.endIndex))
        let body = String(
            decoding: try XCTUnwrap(
                Data(
                    base64Encoded: String(text[bodyStart.upperBound..<bodyEnd.lowerBound]),
                    options: .ignoreUnknownCharacters)), as: UTF8.self)
        XCTAssertTrue(body.contains("Freshness: "), body)
        XCTAssertTrue(body.contains("Alarms: "), body)
        let name = "kpi-2025-06-15.xlsx"
        let start = try XCTUnwrap(text.range(of: "filename=\"\(name)\"\r\nContent-Transfer-Encoding: base64\r\n\r\n"))
        let end = try XCTUnwrap(text.range(of: "\r\n--", range: start.upperBound..<text.endIndex))
        let attached = try XCTUnwrap(
            Data(base64Encoded: String(text[start.upperBound..<end.lowerBound]), options: .ignoreUnknownCharacters))
        XCTAssertEqual(attached, FileManager.default.contents(atPath: out + "/08-natick/" + name))
        XCTAssertEqual(try outbox(database, config).map { $0["state"] as? String }, ["sent"])
    }

    /// A run killed while a receiver holds its request leaves every message sent and marked, or
    /// pending (claimed until the claim lapses): none is lost.
    func testAKilledSendLosesNothing() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        try GoldenReportTests.ingestSamples(into: database)
        let slow = try http(delay: 30)
        let mail = try smtp()
        let config = try config(webhookPort: slow.port, smtpPort: mail.port)
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["--db", database, "--config", config, "alerts", "--send", "--as-of", "2025-06-16"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while try slow.received().isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(try slow.received().count, 1, "the post reached the receiver")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let messages = try outbox(database, config)
        XCTAssertEqual(messages.count, 2)
        XCTAssertEqual(messages.first { $0["target"] as? String == "webhook:ops" }?["state"] as? String, "pending")
        XCTAssertTrue(messages.allSatisfy { ["sent", "pending"].contains($0["state"] as? String ?? "") })
        let retry = try ddkpi(database, config, ["outbox", "retry"])
        XCTAssertEqual(retry.status, 1, "the killed run's claim has not lapsed: \(retry.stderr)")
    }
}
