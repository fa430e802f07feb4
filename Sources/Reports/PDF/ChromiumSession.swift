import CivilCalendar
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One headless Chromium kept open to print many pages (SPEC section 19's publish), driven over
/// the DevTools protocol on a pipe (`--remote-debugging-pipe`: NUL-terminated JSON on file
/// descriptors 3 and 4): a page per document, navigated to the HTML and printed with
/// `Page.printToPDF`, instead of a browser started for each.
public final class ChromiumSession {
    private let printer: ChromiumPrinter
    private let work: URL
    private var pid: pid_t = 0
    private var toBrowser: Int32 = -1
    private var fromBrowser: Int32 = -1
    private var buffer: [UInt8] = []
    private var nextID = 0
    private var session: String?

    /// Starts the browser `printer` names, with a throwaway profile.
    public init(printer: ChromiumPrinter) throws {
        self.printer = printer
        work = FileManager.default.temporaryDirectory.appendingPathComponent("ddkpi-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        var commands: [Int32] = [0, 0]
        var replies: [Int32] = [0, 0]
        guard pipe(&commands) == 0, pipe(&replies) == 0 else {
            throw DocumentError("\(printer.executable): cannot open the pipes to the browser")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, commands[0], 3)
        posix_spawn_file_actions_adddup2(&actions, replies[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments =
            [printer.executable] + ChromiumPrinter.headlessArguments(profile: work.appendingPathComponent("profile"))
            + ["--remote-debugging-pipe", "about:blank"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let status = posix_spawn(&pid, printer.executable, &actions, nil, argv, environ)
        Glibc.close(commands[0])
        Glibc.close(replies[1])
        toBrowser = commands[1]
        fromBrowser = replies[0]
        guard status == 0 else {
            throw DocumentError("\(printer.executable): cannot start: \(String(cString: strerror(status)))")
        }
        let target = try call("Target.createTarget", ["url": "about:blank"])
        guard let targetId = target["targetId"] as? String else {
            throw DocumentError("\(printer.executable): the browser opened no page")
        }
        let attached = try call("Target.attachToTarget", ["targetId": targetId, "flatten": true])
        session = attached["sessionId"] as? String
        _ = try call("Page.enable", [:], inPage: true)
    }

    deinit { close() }

    /// Closes the browser (and its profile); the session is done afterwards.
    public func close() {
        guard pid != 0 else { return }
        _ = try? send("Browser.close", [:], inPage: false)
        Glibc.close(toBrowser)
        Glibc.close(fromBrowser)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
        try? FileManager.default.removeItem(at: work)
    }

    /// Prints `html` to `path`, dated `created` like `ChromiumPrinter.print`.
    public func print(html: String, to path: String, created: CivilDate) throws {
        let page = work.appendingPathComponent("page-\(nextID).html")
        try html.write(to: page, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: page) }
        let navigation = try send("Page.navigate", ["url": page.absoluteString], inPage: true)
        _ = try reply(to: navigation)
        _ = try event(named: "Page.loadEventFired")
        let printed = try call(
            "Page.printToPDF",
            ["printBackground": true, "preferCSSPageSize": true, "displayHeaderFooter": false], inPage: true)
        guard let encoded = printed["data"] as? String, var pdf = Data(base64Encoded: encoded),
            pdf.starts(with: Array("%PDF".utf8))
        else { throw DocumentError("\(path): \(printer.executable) printed no PDF") }
        ChromiumPrinter.makeReproducible(&pdf, day: created)
        try pdf.write(to: URL(fileURLWithPath: path))
    }

    // MARK: - The protocol

    /// Sends a command and waits for its result.
    private func call(_ method: String, _ parameters: [String: Any], inPage: Bool = false) throws -> [String: Any] {
        try reply(to: try send(method, parameters, inPage: inPage))
    }

    /// Sends a command; returns its id.
    private func send(_ method: String, _ parameters: [String: Any], inPage: Bool) throws -> Int {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": parameters]
        if inPage, let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw DocumentError("\(printer.executable): the browser closed its pipe") }
            written += count
        }
        return nextID
    }

    /// The result of command `id` (events before it are passed over).
    private func reply(to id: Int) throws -> [String: Any] {
        while true {
            let message = try receive()
            guard message["id"] as? Int == id else { continue }
            if let error = message["error"] as? [String: Any] {
                throw DocumentError("\(printer.executable): \(error["message"] as? String ?? "a DevTools error")")
            }
            return message["result"] as? [String: Any] ?? [:]
        }
    }

    /// The next event named `name`.
    private func event(named name: String) throws -> [String: Any] {
        while true {
            let message = try receive()
            if message["method"] as? String == name { return message["params"] as? [String: Any] ?? [:] }
        }
    }

    /// The next message, within the printer's time limit.
    private func receive() throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(printer.timeLimit)
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                if let object = try JSONSerialization.jsonObject(with: message) as? [String: Any] { return object }
                continue
            }
            var ready = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard left > 0, poll(&ready, 1, left) > 0 else {
                throw DocumentError("\(printer.executable) did not answer within \(Int(printer.timeLimit)) s")
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(fromBrowser, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw DocumentError("\(printer.executable): the browser closed its pipe") }
            buffer += chunk[..<count]
        }
    }
}
