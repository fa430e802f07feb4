import Foundation
import Warehouse

/// Sends a run's claimed messages in order (SPEC section 24), each destination on its own
/// exponential backoff: a failed send is tried again after 1, 2, 4 … × `backoff_seconds`,
/// `retries` times; then that destination's messages wait for the next run, in order. Each
/// attempt is recorded in its own short transaction.
public struct OutboxSender {
    public var settings: DeliverySettings
    public var transport: any MessageTransport
    /// Waits between attempts (tests may shorten it through `backoff_seconds`).
    public var sleep: (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }

    public init(settings: DeliverySettings, transport: (any MessageTransport)? = nil) {
        self.settings = settings
        self.transport = transport ?? CurlTransport(settings: settings)
    }

    /// What a run did: messages sent, and the errors of destinations that stayed down.
    public struct Outcome: Sendable {
        public var sent = 0
        /// One line per destination whose retries were spent: its target and last error.
        public var failures: [String] = []
    }

    /// Sends `messages` (claimed by `claimer`), recording each attempt in `warehouse`.
    public func send(_ messages: [OutboxMessage], warehouse: Warehouse, claimer: String) throws -> Outcome {
        var queues: [(target: String, messages: [OutboxMessage], failures: Int, due: Date)] = []
        for message in messages {
            if let index = queues.firstIndex(where: { $0.target == message.target }) {
                queues[index].messages.append(message)
            } else {
                queues.append((message.target, [message], 0, Date.distantPast))
            }
        }
        var outcome = Outcome()
        while !queues.isEmpty {
            guard let index = queues.indices.min(by: { queues[$0].due < queues[$1].due }) else { break }
            let wait = queues[index].due.timeIntervalSinceNow
            if wait > 0 { sleep(wait) }
            guard let message = queues[index].messages.first else {
                queues.remove(at: index)
                continue
            }
            do {
                try transport.deliver(message)
                try warehouse.recordAttempt(id: message.id, claimer: claimer, error: nil)
                outcome.sent += 1
                queues[index].messages.removeFirst()
                queues[index].failures = 0
                queues[index].due = Date.distantPast
                if queues[index].messages.isEmpty { queues.remove(at: index) }
            } catch let error as DeliveryError {
                try warehouse.recordAttempt(id: message.id, claimer: claimer, error: error.description)
                queues[index].failures += 1
                let failures = queues[index].failures
                if failures > settings.retries {
                    outcome.failures.append("\(message.target): \(error.description)")
                    queues.remove(at: index)
                } else {
                    let delay = settings.backoffSeconds * Double(1 << min(failures - 1, 30))
                    queues[index].due = Date().addingTimeInterval(delay)
                }
            }
        }
        try warehouse.releaseClaims(claimer: claimer)
        return outcome
    }
}
