import CCurl
import Foundation
import Warehouse

/// Sends one message to its target, through libcurl.
public protocol MessageTransport {
    /// Sends `message`, or throws a `DeliveryError` saying why not (no password, no URL path).
    func deliver(_ message: OutboxMessage) throws
}

/// Sends each message by its target's kind: `email:` by SMTP, `webhook:` by HTTP POST.
public struct CurlTransport: MessageTransport {
    public var settings: DeliverySettings

    public init(settings: DeliverySettings) { self.settings = settings }

    public func deliver(_ message: OutboxMessage) throws {
        if message.target.hasPrefix("email:") {
            try mail(message, to: String(message.target.dropFirst("email:".count)))
        } else if message.target.hasPrefix("webhook:") {
            try post(message, to: String(message.target.dropFirst("webhook:".count)))
        } else {
            throw DeliveryError("\(message.target): expected a target email:ADDRESS or webhook:NAME")
        }
    }

    /// Mails `message` by SMTP: implicit TLS for `smtps://`, STARTTLS required for `smtp://`
    /// unless the host is a loopback address or `require_tls = false`.
    private func mail(_ message: OutboxMessage, to address: String) throws {
        guard let smtp = settings.smtp else {
            throw DeliveryError("\(message.target): no [delivery] smtp in the config")
        }
        guard let from = settings.from else {
            throw DeliveryError("\(message.target): no [delivery] from in the config")
        }
        let transfer = try CurlTransfer(url: smtp, timeout: settings.timeoutSeconds, protocols: "smtp,smtps")
        if smtp.hasPrefix("smtp://") {
            let required = settings.requiresStartTLS(smtp)
            try transfer.set(CURLOPT_USE_SSL, Int(required ? CURLUSESSL_ALL.rawValue : CURLUSESSL_TRY.rawValue))
        }
        if let caFile = settings.caFile { try transfer.set(CURLOPT_CAINFO, caFile) }
        if let user = settings.user {
            try transfer.set(CURLOPT_USERNAME, user)
            if let password = try settings.password() { try transfer.set(CURLOPT_PASSWORD, password) }
        }
        try transfer.set(CURLOPT_MAIL_FROM, "<\(from)>")
        try transfer.set(CURLOPT_MAIL_RCPT, list: ["<\(address)>"])
        let mail = MailMessage(
            from: from, to: address, subject: message.subject, messageID: message.messageID, text: message.body,
            attachments: message.attachments)
        try transfer.setUpload(mail.bytes, post: false)
        _ = try transfer.perform()
    }

    /// POSTs `message`'s JSON to the webhook `name`, with its id as `Idempotency-Key`.
    private func post(_ message: OutboxMessage, to name: String) throws {
        guard let url = settings.webhooks[name] else {
            throw DeliveryError("\(message.target): no webhook \(name) in the config's [webhooks]")
        }
        let transfer = try CurlTransfer(url: url, timeout: settings.timeoutSeconds, protocols: "http,https")
        if let caFile = settings.caFile { try transfer.set(CURLOPT_CAINFO, caFile) }
        try transfer.set(
            CURLOPT_HTTPHEADER,
            list: ["Content-Type: application/json", "Idempotency-Key: \(message.messageID)", "Expect:"])
        try transfer.setUpload(Array(message.body.utf8), post: true)
        let status = try transfer.perform()
        guard (200..<300).contains(status) else {
            throw DeliveryError("\(message.target): the receiver answered HTTP \(status)")
        }
    }
}
