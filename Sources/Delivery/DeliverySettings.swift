import Foundation

/// `[delivery]` and `[webhooks]` (SPEC section 24): where mail and webhooks go, and how sends
/// are retried. The password is read only when a mail is sent, and never printed.
public struct DeliverySettings: Sendable, Equatable {
    /// `smtps://host:465` (implicit TLS) or `smtp://host:587` (STARTTLS); `nil`: no mail.
    public var smtp: String?
    /// The sender's address.
    public var from: String?
    public var user: String?
    /// The environment variable that holds the SMTP password.
    public var passwordEnvironment: String?
    /// The file that holds the SMTP password (its first line).
    public var passwordFile: String?
    /// A PEM file of the private CA that signed the servers' certificates.
    public var caFile: String?
    /// Whether `smtp://` must upgrade with STARTTLS (a loopback host never must).
    public var requireTLS = true
    /// Attempts after the first before a destination waits for the next run.
    public var retries = 5
    /// The first retry's delay in seconds; each further one doubles it.
    public var backoffSeconds = 1.0
    /// The most seconds one transfer may take (connecting included).
    public var timeoutSeconds = 30
    /// Webhook URLs by name (`[webhooks] ops = "https://…"`).
    public var webhooks: [String: String] = [:]

    public init() {}

    /// The SMTP password from `password_env` or `password_file`; `nil` when neither is set.
    func password() throws -> String? {
        if let name = passwordEnvironment {
            guard let value = ProcessInfo.processInfo.environment[name] else {
                throw DeliveryError("[delivery] password_env: the environment has no \(name)")
            }
            return value
        }
        if let path = passwordFile {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw DeliveryError("[delivery] password_file: cannot read \(path)")
            }
            return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        }
        return nil
    }

    /// Whether a loopback host may skip STARTTLS; tests turn it off to see libcurl refuse.
    var exemptsLoopback = true

    /// Whether mail to `url` (`smtp://`) must upgrade with STARTTLS before anything is sent.
    func requiresStartTLS(_ url: String) -> Bool {
        requireTLS && !(exemptsLoopback && Self.isLoopback(url))
    }

    /// Whether `url`'s host is this machine (127.0.0.0/8, ::1, localhost).
    static func isLoopback(_ url: String) -> Bool {
        guard let host = URL(string: url)?.host?.lowercased() else { return false }
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        return parts.count == 4 && parts.allSatisfy { $0 != nil } && parts[0] == 127
    }
}

/// A message that could not be sent, or a delivery setting that cannot be used; its text holds
/// no password and no URL path.
public struct DeliveryError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
