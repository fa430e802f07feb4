import Delivery
import Foundation
import Warehouse

/// How a write command sends the outbox (SPEC section 24): under the lock it claims the pending
/// messages, releases the lock, sends them, and records each result on its own.
enum OutboxDelivery {
    /// Claims and sends every pending message no live run holds, then releases `lock` before
    /// the first send; returns how many messages stay pending.
    static func sendPending(_ warehouse: Warehouse, _ configuration: Configuration, releasing lock: IngestLock) throws
        -> Int
    {
        let claimer = UUID().uuidString.lowercased()
        let claimed: [OutboxMessage]
        do {
            defer { lock.release() }
            claimed = try warehouse.claimPendingMessages(claimer: claimer)
        }
        let outcome = try OutboxSender(settings: configuration.delivery).send(
            claimed, warehouse: warehouse, claimer: claimer)
        for failure in outcome.failures {
            Diagnostics.warning("not sent, kept in the outbox for the next run: \(failure)")
        }
        return try warehouse.pendingMessageCount()
    }
}
