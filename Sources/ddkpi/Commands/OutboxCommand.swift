import ArgumentParser
import OutputText
import Reports
import Warehouse

/// `ddkpi outbox`: the messages alerts and packs put in the warehouse before sending them (SPEC
/// section 24): list them, send the pending ones again, or drop one.
struct OutboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox", abstract: "The outbox: list messages, retry the pending ones, or drop one.",
        subcommands: [List.self, Retry.self, Drop.self], defaultSubcommand: List.self)

    /// `outbox list`: every message with its state, attempts and last error.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the outbox's messages, oldest first.")

        @OptionGroup var global: GlobalOptions

        @Option(help: "Output format: table or json.")
        var format = FormatOption<TableOrJSON>.standard

        func run() throws {
            let configuration = try global.configuration()
            let messages = try global.openWarehouseUnscoped(configuration, for: "the outbox").outboxMessages()
            try ReportOutput.write(to: nil) { _ in
                format.value == .json ? Self.json(messages) : Self.table(messages)
            }
        }

        /// `{"messages":[{"id","target","state","attempts","created","lastError"}]}`.
        static func json(_ messages: [OutboxMessage]) -> String {
            let objects = messages.map { message in
                "{\"id\":\(message.id),\"target\":\(JSONText.quoted(message.target)),"
                    + "\"state\":\"\(message.state.rawValue)\",\"attempts\":\(message.attempts),"
                    + "\"created\":\(JSONText.quoted(message.created)),"
                    + "\"lastError\":\(message.lastError.map(JSONText.quoted) ?? "null")}"
            }
            return "{\"messages\":[" + objects.map { "\n" + $0 }.joined(separator: ",")
                + (objects.isEmpty ? "" : "\n") + "]}\n"
        }

        static func table(_ messages: [OutboxMessage]) -> String {
            guard !messages.isEmpty else { return "The outbox is empty.\n" }
            var table = TextTable(alignments: [.right, .left, .left, .right, .left, .left], separator: "  ")
            table.add(["id", "target", "state", "attempts", "created", "last error"])
            for message in messages {
                table.add([
                    String(message.id), message.target, message.state.rawValue, String(message.attempts),
                    message.created, message.lastError ?? "",
                ])
            }
            return table.render()
        }
    }

    /// `outbox retry`: sends the pending messages now; exit 1 when any stays pending.
    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the pending messages again; exit 1 when any stays pending.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let configuration = try global.configuration()
            let warehouse = try global.openWarehouseForWriting(configuration)
            let lock = try warehouse.ingestLockOrExit(waiting: global.lockTimeout)
            let pending = try OutboxDelivery.sendPending(warehouse, configuration, releasing: lock)
            Diagnostics.raw(pending == 0 ? "outbox: nothing pending\n" : "outbox: \(pending) pending\n")
            if pending > 0 { throw ExitCode(ExitStatus.inputFailed) }
        }
    }

    /// `outbox drop ID`: a pending message will not be sent.
    struct Drop: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Drop a pending message (it is kept, as dropped).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The message's id (see `ddkpi outbox list`).")
        var id: Int64

        func run() throws {
            let configuration = try global.configuration()
            let warehouse = try global.openWarehouseForWriting(configuration)
            let lock = try warehouse.ingestLockOrExit(waiting: global.lockTimeout)
            defer { lock.release() }
            guard try warehouse.dropMessage(id: id) else {
                throw ConfigurationError(
                    "outbox drop \(id): expected the id of a pending message (see `ddkpi outbox list`)")
            }
            Diagnostics.raw("outbox: message \(id) dropped\n")
        }
    }
}
