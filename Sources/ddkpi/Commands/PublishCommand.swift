import ArgumentParser
import Foundation
import KPI
import Publishing
import Warehouse

/// `ddkpi publish --plan FILE --out DIR (--quarter Q | --as-of D) [--dry-run]`: a folder of
/// documents per director's pack (SPEC section 19); exit 4 when any pack has late data.
struct PublishCommand: ParsableCommand, ReportPeriodCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract:
            "Write each pack of a plan: its documents for its scope alone and manifest.json; exit 4 when any has late data."
    )

    static let periodShape = ReportPeriodShape(
        form: .quarterOrDay, quarter: "A fiscal quarter, such as 2025Q2 (or give --as-of).",
        asOf: "The as-of day (YYYY-MM-DD), in its quarter.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The plan (TOML): [[pack]] tables with name, stores/region/all, reports and formats.")
    var plan: String

    @Option(help: "The folder the packs' folders go in.")
    var out: String

    @OptionGroup var period: ReportPeriodOptions<PublishCommand>

    @Option(help: "Sign each pack's manifest with this private key (NAME.pem from ddkpi keys generate).")
    var sign: String?

    @Flag(help: "List the packs and their files; write nothing.")
    var dryRun = false

    @Flag(help: "Mail each pack's PDFs (or XLSX) to its plan's email = [...] (through the outbox).")
    var send = false

    func validate() throws {
        if send, dryRun { throw ValidationError("give --send or --dry-run, not both") }
    }

    func run() throws {
        guard let text = try? String(contentsOfFile: plan, encoding: .utf8) else {
            throw ConfigurationError("\(plan): cannot read the plan")
        }
        let parsed: PublishPlan
        do {
            parsed = try PublishPlan(text: text, file: plan)
        } catch let error as PlanError {
            throw ConfigurationError(error.description)
        }
        let context = try ReportContext(global: global)
        if send {
            do {
                try context.engine.warehouse.refuseScopedWriter()
            } catch let error as WarehouseError {
                throw ConfigurationError("\(error)")
            }
        }
        for pack in parsed.packs {
            do {
                try context.engine.requireReadable(pack.scope)
            } catch let error as KPIError {
                throw ConfigurationError("\(plan): pack \"\(pack.name)\": \(error)")
            }
        }
        let checks = try global.configuration().checks(against: context.engine.warehouse)
        let period: PublishPeriod
        switch try self.period.resolve(in: context.engine.calendar) {
        case .quarter(let fiscal, _, _): period = .quarter(fiscal)
        case .day(let day): period = .asOf(day)
        case .latest, .toDate: throw ValidationError("publish takes --quarter or --as-of")
        }
        var publisher = Publisher(
            engine: context.engine, freshness: try global.configuration().freshness, neutralBand: context.neutralBand,
            alarmCount: { stores, days in
                try context.engine.warehouse.alarms(
                    from: days.start, through: days.end, stores: Set(stores), settings: checks
                ).count
            })
        if let sign {
            guard let pem = FileManager.default.contents(atPath: sign) else {
                throw ConfigurationError("--sign \(sign): cannot read the key")
            }
            let key = try Ed25519Key.read(pem: pem, name: sign)
            guard key.isPrivate else {
                throw ConfigurationError("--sign \(sign): a public key cannot sign; give the private key (NAME.pem)")
            }
            publisher.signingKey = key
        }
        let packs: [PackResult]
        do {
            packs = try publisher.publish(parsed, period: period, to: out, dryRun: dryRun)
        } catch let error as PlanError {
            throw ConfigurationError(error.description)
        } catch let error as PackWriteError {
            Diagnostics.error("\(out)/\(error.description)")
            throw ExitCode(ExitStatus.inputFailed)
        }
        for pack in packs {
            print("\(pack.name)/: " + pack.files.joined(separator: ", ") + (pack.banner.map { " — \($0)" } ?? ""))
        }
        if send, try mailPacks(packs) > 0 { throw ExitCode(ExitStatus.inputFailed) }
        if packs.contains(where: { $0.banner != nil }) { throw ExitCode(ExitStatus.feedsLate) }
    }

    /// Puts a mail per address of each pack in the outbox, with the pack's PDFs (or, without
    /// PDFs, its XLSX) attached, and sends the outbox (SPEC section 24); how many stay pending.
    private func mailPacks(_ packs: [PackResult]) throws -> Int {
        let configuration = try global.configuration()
        var messages: [NewOutboxMessage] = []
        for pack in packs where !pack.email.isEmpty {
            guard configuration.delivery.smtp != nil, configuration.delivery.from != nil else {
                throw ConfigurationError(
                    "--send: pack \(pack.name) has email = [...]; expected [delivery] smtp and from in the config")
            }
            let pdfs = pack.files.filter { $0.hasSuffix(".pdf") }
            let attached = pdfs.isEmpty ? pack.files.filter { $0.hasSuffix(".xlsx") } : pdfs
            let attachments = try attached.map { name in
                let path = URL(fileURLWithPath: out).appendingPathComponent(pack.name).appendingPathComponent(name).path
                guard let bytes = FileManager.default.contents(atPath: path) else {
                    throw InputFailure(underlying: ConfigurationError("\(path): cannot read the pack's document"))
                }
                let type =
                    name.hasSuffix(".pdf")
                    ? "application/pdf" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                return OutboxAttachment(name: name, contentType: type, bytes: Array(bytes))
            }
            for address in pack.email {
                messages.append(
                    NewOutboxMessage(
                        target: "email:\(address)",
                        subject: "ddkpi pack \(pack.name): \(pack.period) as of \(pack.asOf)",
                        body: pack.mailText, attachments: attachments))
            }
        }
        let warehouse = try global.openWarehouseForWriting(configuration)
        let lock = try warehouse.ingestLockOrExit(waiting: global.lockTimeout)
        do {
            try warehouse.enqueue(messages)
        } catch {
            lock.release()
            throw error
        }
        return try OutboxDelivery.sendPending(warehouse, configuration, releasing: lock)
    }
}
