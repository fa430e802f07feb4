import CivilCalendar
import Foundation

/// A file a mail carries.
public struct OutboxAttachment: Sendable, Equatable {
    public var name: String
    public var contentType: String
    public var bytes: [UInt8]

    public init(name: String, contentType: String, bytes: [UInt8]) {
        self.name = name
        self.contentType = contentType
        self.bytes = bytes
    }
}

/// A message to put in the outbox (SPEC section 24): its target by name, resolved at each send.
public struct NewOutboxMessage: Sendable {
    /// `webhook:NAME` or `email:ADDRESS`.
    public var target: String
    public var subject: String
    /// A webhook's JSON, or a mail's text.
    public var body: String
    public var attachments: [OutboxAttachment]

    public init(target: String, subject: String, body: String, attachments: [OutboxAttachment] = []) {
        self.target = target
        self.subject = subject
        self.body = body
        self.attachments = attachments
    }
}

/// A message of the outbox as it stands.
public struct OutboxMessage: Sendable, Equatable {
    public enum State: String, Sendable {
        case pending, sent, dropped
    }

    public var id: Int64
    /// The stable id a receiver recognises a repeat by (`Message-ID`, `Idempotency-Key`).
    public var messageID: String
    public var target: String
    public var subject: String
    public var body: String
    public var state: State
    /// Attempts made so far.
    public var attempts: Int
    /// When the message was put in the outbox (UTC).
    public var created: String
    public var lastError: String?
    /// Loaded only for messages claimed for sending.
    public var attachments: [OutboxAttachment]

    public init(
        id: Int64, messageID: String, target: String, subject: String, body: String, state: State = .pending,
        attempts: Int = 0, created: String = "", lastError: String? = nil, attachments: [OutboxAttachment] = []
    ) {
        self.id = id
        self.messageID = messageID
        self.target = target
        self.subject = subject
        self.body = body
        self.state = state
        self.attempts = attempts
        self.created = created
        self.lastError = lastError
        self.attachments = attachments
    }
}

extension Warehouse {
    /// How long a claim on a message lasts (SPEC section 24).
    public static let claimLapseSeconds: Int64 = 600

    /// Puts `messages` in the outbox in one transaction.
    public func enqueue(_ messages: [NewOutboxMessage]) throws {
        try backend.transaction { session in
            try Self.insert(messages, session)
            return true
        }
    }

    static func insert(_ messages: [NewOutboxMessage], _ session: any SQLSession) throws {
        for message in messages {
            let id = try session.insertReturningID(
                "INSERT INTO outbox (message_id, target, subject, body, created) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(UUID().uuidString.lowercased()), .text(message.target), .text(message.subject),
                    .text(message.body), .text(UTCTimestamp.now()),
                ])
            for (position, attachment) in message.attachments.enumerated() {
                try session.execute(
                    "INSERT INTO outbox_attachment (message, position, name, content_type, base64) VALUES (?, ?, ?, ?, ?)",
                    [
                        .integer(id), .integer(Int64(position)), .text(attachment.name), .text(attachment.contentType),
                        .text(Data(attachment.bytes).base64EncodedString()),
                    ])
            }
        }
    }

    /// Every message, oldest first.
    public func outboxMessages() throws -> [OutboxMessage] {
        try backend.read { session in try Self.messages(session, where: "", []) }
    }

    private static func messages(_ session: any SQLSession, where condition: String, _ arguments: [SQLValue]) throws
        -> [OutboxMessage]
    {
        var messages: [OutboxMessage] = []
        try session.scan(
            "SELECT id, message_id, target, subject, body, state, attempts, created, last_error FROM outbox "
                + condition + " ORDER BY id", arguments
        ) { row in
            messages.append(
                OutboxMessage(
                    id: row.int64(0), messageID: row.text(1), target: row.text(2), subject: row.text(3),
                    body: row.text(4), state: OutboxMessage.State(rawValue: row.text(5)) ?? .pending,
                    attempts: Int(row.int64(6)), created: row.text(7), lastError: row.optionalText(8),
                    attachments: []))
        }
        return messages
    }

    /// Claims the pending messages no live run has claimed, for `claimer` until `now` plus the
    /// lapse (SPEC section 24), and returns them oldest first with their attachments.
    public func claimPendingMessages(claimer: String, now: Int64 = Int64(Date().timeIntervalSince1970)) throws
        -> [OutboxMessage]
    {
        try backend.write { session in
            try session.execute(
                "UPDATE outbox SET claimed_by = ?, claimed_until = ? "
                    + "WHERE state = 'pending' AND (claimed_until IS NULL OR claimed_until < ?)",
                [.text(claimer), .integer(now + Self.claimLapseSeconds), .integer(now)])
            var claimed = try Self.messages(
                session, where: "WHERE state = 'pending' AND claimed_by = ?", [.text(claimer)])
            for index in claimed.indices {
                try session.scan(
                    "SELECT name, content_type, base64 FROM outbox_attachment WHERE message = ? ORDER BY position",
                    [.integer(claimed[index].id)]
                ) { row in
                    claimed[index].attachments.append(
                        OutboxAttachment(
                            name: row.text(0), contentType: row.text(1),
                            bytes: Array(Data(base64Encoded: row.text(2)) ?? Data())))
                }
            }
            return claimed
        }
    }

    /// Records one attempt at a claimed message in its own transaction: sent, or the error
    /// (`nil`: sent). The claim ends when it is sent.
    public func recordAttempt(id: Int64, claimer: String, error: String?) throws {
        try backend.transaction { session in
            if let error {
                try session.execute(
                    "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE id = ? AND claimed_by = ?",
                    [.text(error), .integer(id), .text(claimer)])
            } else {
                try session.execute(
                    "UPDATE outbox SET attempts = attempts + 1, state = 'sent', sent_at = ?, last_error = NULL, "
                        + "claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?",
                    [.text(UTCTimestamp.now()), .integer(id), .text(claimer)])
            }
            return true
        }
    }

    /// Ends `claimer`'s claims on the messages it leaves pending.
    public func releaseClaims(claimer: String) throws {
        try backend.transaction { session in
            try session.execute(
                "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?", [.text(claimer)])
            return true
        }
    }

    /// Marks a pending message dropped; `false` when there is no pending message `id`.
    public func dropMessage(id: Int64) throws -> Bool {
        try backend.write { session in
            guard
                try session.integer("SELECT count(*) FROM outbox WHERE id = ? AND state = 'pending'", [.integer(id)])
                    == 1
            else { return false }
            try session.execute(
                "UPDATE outbox SET state = 'dropped', claimed_by = NULL, claimed_until = NULL WHERE id = ?",
                [.integer(id)])
            return true
        }
    }

    /// How many messages are pending.
    public func pendingMessageCount() throws -> Int {
        Int(
            try backend.read { session in try session.integer("SELECT count(*) FROM outbox WHERE state = 'pending'") }
                ?? 0)
    }
}
