import Foundation
import Warehouse

/// An Internet message (RFC 5322, MIME RFC 2045–2049): text in UTF-8, base64 bodies, files as
/// attachments; lines end in CRLF.
struct MailMessage {
    var from: String
    var to: String
    var subject: String
    var messageID: String
    var text: String
    var attachments: [OutboxAttachment]
    var date = Date()

    /// The message's bytes as SMTP's DATA carries them.
    var bytes: [UInt8] {
        var lines = [
            "Date: \(Self.dateText(date))", "From: \(from)", "To: \(to)", "Subject: \(Self.header(subject))",
            "Message-ID: <\(messageID)@ddkpi>", "MIME-Version: 1.0",
        ]
        let textPart = [
            "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64", "",
            Self.base64Lines(Array(text.utf8)),
        ]
        if attachments.isEmpty {
            lines += textPart
        } else {
            let boundary = "ddkpi-\(messageID)"
            lines += ["Content-Type: multipart/mixed; boundary=\"\(boundary)\"", "", "--\(boundary)"] + textPart
            for attachment in attachments {
                let name = attachment.name.replacingOccurrences(of: "\"", with: "")
                lines += [
                    "--\(boundary)", "Content-Type: \(attachment.contentType); name=\"\(name)\"",
                    "Content-Disposition: attachment; filename=\"\(name)\"", "Content-Transfer-Encoding: base64", "",
                    Self.base64Lines(attachment.bytes),
                ]
            }
            lines.append("--\(boundary)--")
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// Base64 in lines of 76 characters (RFC 2045), joined by CRLF.
    static func base64Lines(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString(options: [
            .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
        ])
    }

    /// A header value: as is when ASCII without control characters, else an RFC 2047 encoded word.
    static func header(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) { return text }
        return "=?UTF-8?B?\(Data(text.utf8).base64EncodedString())?="
    }

    /// RFC 5322's date: `Sun, 29 Nov 2026 02:30:00 +0000`.
    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}
