import Foundation
import TestSupport
import Warehouse
import XCTest

@testable import Delivery

/// The outbox's order, per-destination backoff and claims (SPEC section 24), on both backends,
/// with a transport that fails as told.
final class OutboxSenderTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    /// Fails each target's first `failures[target]` attempts; records every attempt.
    private final class ScriptedTransport: MessageTransport {
        var failures: [String: Int]
        var attempts: [String] = []

        init(failures: [String: Int]) { self.failures = failures }

        func deliver(_ message: OutboxMessage) throws {
            attempts.append(message.subject)
            if let left = failures[message.target], left > 0 {
                failures[message.target] = left - 1
                throw DeliveryError("\(message.target): the receiver answered HTTP 503")
            }
        }
    }

    func testBackoffPerDestinationAndOrder() throws {
        try TestWarehouses.forEachBackend(in: directory) { location in
            let warehouse = try Warehouse(location: location)
            try warehouse.enqueue([
                NewOutboxMessage(target: "webhook:a", subject: "a1", body: "{}"),
                NewOutboxMessage(target: "webhook:b", subject: "b1", body: "{}"),
                NewOutboxMessage(target: "webhook:a", subject: "a2", body: "{}"),
            ])
            var settings = DeliverySettings()
            settings.retries = 2
            settings.backoffSeconds = 0.01
            let transport = ScriptedTransport(failures: ["webhook:a": 2, "webhook:b": 100])
            var sender = OutboxSender(settings: settings, transport: transport)
            var waits: [Double] = []
            sender.sleep = { waits.append($0) }
            let claimed = try warehouse.claimPendingMessages(claimer: "run-1")
            XCTAssertEqual(claimed.map(\.subject), ["a1", "b1", "a2"])
            XCTAssertEqual(try warehouse.claimPendingMessages(claimer: "run-2").count, 0, "claimed by a live run")
            let outcome = try sender.send(claimed, warehouse: warehouse, claimer: "run-1")
            XCTAssertEqual(outcome.sent, 2)
            XCTAssertEqual(outcome.failures, ["webhook:b: webhook:b: the receiver answered HTTP 503"])
            XCTAssertEqual(transport.attempts.filter { $0.hasPrefix("a") }, ["a1", "a1", "a1", "a2"], "in order")
            XCTAssertEqual(transport.attempts.filter { $0 == "b1" }.count, 3, "the first attempt and 2 retries")
            XCTAssertTrue(waits.allSatisfy { $0 <= 0.02 + 0.001 }, "\(waits)")
            let messages = try warehouse.outboxMessages()
            XCTAssertEqual(messages.map(\.state), [.sent, .pending, .sent])
            XCTAssertEqual(messages.map(\.attempts), [3, 3, 1])
            XCTAssertEqual(messages[1].lastError, "webhook:b: the receiver answered HTTP 503")
            XCTAssertEqual(try warehouse.pendingMessageCount(), 1)
            XCTAssertEqual(try warehouse.claimPendingMessages(claimer: "run-3").map(\.subject), ["b1"])
            let later = Int64(Date().timeIntervalSince1970) + Warehouse.claimLapseSeconds + 1
            XCTAssertEqual(
                try warehouse.claimPendingMessages(claimer: "run-4", now: later).map(\.subject), ["b1"],
                "a claim lapses after 10 minutes")
        }
    }
}
