import CivilCalendar
import Foundation

/// Prints HTML to PDF with a headless Chromium (SPEC section 12; no other PDF engine): the
/// browser is `$DDKPI_CHROMIUM`, else `chromium` or `chromium-browser` on the `PATH`.
public struct ChromiumPrinter {
    /// The browser's executable.
    public let executable: String
    /// How long the browser may take before it is stopped.
    public var timeLimit: TimeInterval = 120

    /// The browser to use; throws `DocumentError` naming Debian's `chromium` when there is none.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let configured = environment["DDKPI_CHROMIUM"], !configured.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: configured) else {
                throw DocumentError(
                    "DDKPI_CHROMIUM=\(configured): not an executable file; expected the path of a Chromium browser")
            }
            executable = configured
            return
        }
        let directories = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser"] {
            for directory in directories {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) {
                    executable = candidate
                    return
                }
            }
        }
        throw DocumentError(
            "PDF needs a headless Chromium, and none was found (chromium or chromium-browser on the PATH, or $DDKPI_CHROMIUM); "
                + "install Debian's package with: apt-get install chromium")
    }

    /// A headless browser without first-run pages or extensions, on the throwaway `profile`;
    /// without the sandbox only as root, where Chromium's sandbox refuses to start.
    static func headlessArguments(profile: URL) -> [String] {
        [
            "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
            "--user-data-dir=\(profile.path)",
        ] + (geteuid() == 0 ? ["--no-sandbox"] : [])
    }

    /// Writes `html` to a temporary page and prints it to `path`, dated `created` (00:00 UTC) as
    /// its creation and modification date instead of the clock, so the same page gives the same
    /// bytes (SPEC section 19).
    public func print(html: String, to path: String, created: CivilDate) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("ddkpi-pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let page = work.appendingPathComponent("report.html")
        try html.write(to: page, atomically: false, encoding: .utf8)
        let output = URL(fileURLWithPath: path).standardizedFileURL.path

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        let arguments =
            Self.headlessArguments(profile: work.appendingPathComponent("profile"))
            + ["--print-to-pdf=\(output)", "--no-pdf-header-footer"]
        process.arguments = arguments + [page.absoluteString]
        let log = work.appendingPathComponent("chromium.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }
        process.standardOutput = logHandle
        process.standardError = logHandle
        try? FileManager.default.removeItem(atPath: output)
        try process.run()

        let deadline = Date().addingTimeInterval(timeLimit)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw DocumentError("\(path): \(executable) did not finish printing within \(Int(timeLimit)) s; stopped it")
        }
        var pdf = FileManager.default.contents(atPath: output) ?? Data()
        guard process.terminationStatus == 0, pdf.starts(with: Array("%PDF".utf8)) else {
            let messages = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw DocumentError(
                "\(path): \(executable) exited with status \(process.terminationStatus) and wrote no PDF; it said: "
                    + messages.split(separator: "\n").suffix(3).joined(separator: " | "))
        }
        Self.makeReproducible(&pdf, day: created)
        try pdf.write(to: URL(fileURLWithPath: output))
    }

    /// Makes Chromium's PDF the same bytes for the same page: dated `day` (`stampDates`) and its
    /// structure tree's element ids numbered from 1 in the elements' order (`renumberStructureIDs`).
    static func makeReproducible(_ pdf: inout Data, day: CivilDate) {
        stampDates(&pdf, day: day)
        renumberStructureIDs(&pdf)
    }

    /// The structure tree's element ids numbered the same on every print of the same page
    /// (see `StructureIDNumbering`).
    static func renumberStructureIDs(_ pdf: inout Data) {
        var bytes = [UInt8](pdf)
        StructureIDNumbering.renumber(&bytes)
        pdf = Data(bytes)
    }

    /// Replaces the values of `/CreationDate (D:…)` and `/ModDate (D:…)` with `day` at 00:00 UTC,
    /// in place and only when the old value has the new one's length (Chromium's
    /// `D:YYYYMMDDHHmmSS+HH'mm'`), so the cross-reference offsets stay right.
    static func stampDates(_ pdf: inout Data, day: CivilDate) {
        let date = Array("D:\(day.iso8601.replacingOccurrences(of: "-", with: ""))000000+00'00'".utf8)
        var bytes = [UInt8](pdf)
        for key in ["/CreationDate (", "/ModDate ("] {
            let marker = Array(key.utf8)
            var index = 0
            while let found = bytes.firstIndex(of: marker, from: index) {
                let start = found + marker.count
                index = start
                guard let close = bytes[start...].firstIndex(of: UInt8(ascii: ")")), close - start == date.count
                else { continue }
                bytes.replaceSubrange(start..<close, with: date)
            }
        }
        pdf = Data(bytes)
    }
}
