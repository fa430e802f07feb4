import Foundation
import XCTest

/// A receiver on 127.0.0.1 for delivery tests (`Tests/Fixtures/receivers.py`): an HTTP
/// receiver that can answer 503 first, or an aiosmtpd SMTP server. Skips the test when python3
/// or aiosmtpd is missing.
public final class LocalReceiver {
    public let port: Int
    private let process: Process
    private let log: URL

    /// The python3 that has aiosmtpd (Debian's, or the first on the PATH), or a skip saying what is missing.
    public static func python() throws -> String {
        for candidate in ["/usr/bin/python3", "/usr/local/bin/python3", "python3"] {
            let result = try? CommandRunner.run(candidate, ["-c", "import aiosmtpd"])
            if result?.status == 0 { return candidate }
        }
        throw XCTSkip("delivery tests need python3 with aiosmtpd (bash .ci/install --tests, or pip install aiosmtpd)")
    }

    /// Starts an HTTP receiver that answers 503 to the first `failures` POSTs, each answer
    /// `delay` seconds after the request arrived.
    public static func http(in directory: URL, failures: Int = 0, delay: Double = 0) throws -> LocalReceiver {
        try LocalReceiver(["http"], extra: [String(failures), String(delay)], in: directory)
    }

    /// Starts an SMTP server.
    public static func smtp(in directory: URL) throws -> LocalReceiver {
        try LocalReceiver(["smtp"], extra: [], in: directory)
    }

    private init(_ mode: [String], extra: [String], in directory: URL) throws {
        let python = try Self.python()
        log = directory.appendingPathComponent("\(mode[0])-\(UUID().uuidString).jsonl")
        process = Process()
        process.executableURL = URL(fileURLWithPath: python.hasPrefix("/") ? python : "/usr/bin/env")
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/receivers.py").path
        process.arguments = (python.hasPrefix("/") ? [] : [python]) + [script] + mode + [log.path] + extra
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([10]) {
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw XCTSkip("the \(mode[0]) receiver did not start")
        }
        self.port = port
    }

    /// Stops the receiver.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    /// What it received, one JSON object per request or message, in order.
    public func received() throws -> [[String: Any]] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// A port nothing listens on (bound, then closed).
    public static func closedPort() -> Int { 9 }
}
