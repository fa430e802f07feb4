import ArgumentParser
import KPI
import Logging
import OutputText
import Publishing
import SheetDump
import SheetStream

#if canImport(Glibc)
    import Glibc
#endif

/// The `ddkpi` command line: turns nightly retail exports into KPIs (see README and SPEC section 8).
@main
struct DDKPI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ddkpi",
        abstract: "Ingest retail exports (XLSX/CSV) into a SQLite warehouse and report KPIs against goals.",
        subcommands: [
            StoresCommand.self, GoalsCommand.self, IngestCommand.self, MigrateCommand.self, RunsCommand.self,
            KPICommand.self,
            ReviewCommand.self, EmployeesCommand.self, MerchCommand.self, RollupsCommand.self, StatusCommand.self,
            CheckCommand.self, AlertsCommand.self, OutboxCommand.self, ExplainCommand.self,
            PublishCommand.self, KeysCommand.self, VerifyCommand.self, AccessCommand.self, HistoryCommand.self,
            SheetsCommand.self,
            HeadersCommand.self, DumpCommand.self,
        ]
    )

    /// `--db` and `--config` before the command name (`ddkpi --db w.sqlite runs`); every command
    /// declares the same group, so the values reach it from either side of its name.
    @OptionGroup var global: GlobalOptions

    /// Runs the command and maps every outcome to the exit codes: 0 success, 1 some input
    /// failed, 2 usage or configuration error, 3 lock held, 4 a feed late or missing (`status`) or
    /// an alarm (`check`).
    static func main() {
        // The libraries' loggers (the PostgreSQL server's notices) write in the command's log format.
        let format = LogFormat(arguments: CommandLine.arguments)
        LoggingSystem.bootstrap { _ in ProcessLogHandler(format: format) }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as InputFailure {
            Diagnostics.error(failure.description)
            Glibc.exit(ExitStatus.inputFailed)
        } catch let failure as ConfigurationError {
            Diagnostics.error(failure.description)
            Glibc.exit(ExitStatus.usage)
        } catch let failure as KPIError {
            Diagnostics.error(failure.description)
            Glibc.exit(ExitStatus.usage)
        } catch let failure as SigningError {
            Diagnostics.error(failure.description)
            Glibc.exit(ExitStatus.usage)
        } catch let code as ExitCode {
            Glibc.exit(code.rawValue)
        } catch {
            let status = exitCode(for: error)
            if status == .success {
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            // One prefix: argument-parser's own "Error: " goes, ours stays. The usage lines it
            // adds after a usage error are for people: as they are, and only in text logs.
            let message = Self.message(for: error)
            Diagnostics.error(message)
            let full = fullMessage(for: error)
            if full.hasPrefix("Error: \(message)\n") {
                Diagnostics.raw(String(full.dropFirst("Error: \(message)\n".count)) + "\n")
            }
            Glibc.exit(ExitStatus.usage)
        }
    }
}

/// SPEC section 8 exit codes.
enum ExitStatus {
    static let inputFailed: Int32 = 1
    static let usage: Int32 = 2
    static let lockHeld: Int32 = 3
    /// `status` found a feed late or missing.
    static let feedsLate: Int32 = 4
    /// `check` found an alarm (SPEC section 18).
    static let alarms: Int32 = 4
    /// `alerts` found an alert firing (SPEC section 24).
    static let alertsFiring: Int32 = 4
}

/// Bad input (an unreadable, malformed or hostile file): exit code 1.
struct InputFailure: Error, CustomStringConvertible {
    let underlying: Error
    var description: String { String(describing: underlying) }
}

/// Messages go to standard error, data to standard output. With `--log-format json` each
/// message is a JSON event (an error is a `fatal` one); in text, `ddkpi: error: …` with control
/// characters escaped, so that names and messages from files and servers stay on one line and
/// never drive the terminal (SPEC section 15).
enum Diagnostics {
    /// Where messages go: the log format of the command line.
    private static let log = EventLog(format: LogFormat(arguments: CommandLine.arguments))

    /// An error that ends the run (or, in text, a failed file's reason).
    static func error(_ message: String) {
        if log.isStructured { return log.error("fatal", fields: ["error": .string(message)]) }
        write("ddkpi: error: \(ControlCharacters.escaped(message))\n")
    }

    /// Something a person should know that does not stop the run.
    static func warning(_ message: String) {
        if log.isStructured { return log.warning("warning", fields: ["message": .string(message)]) }
        write("ddkpi: warning: \(ControlCharacters.escaped(message))\n")
    }

    /// Text as is, for a person (progress lines, usage); not written in JSON logs.
    static func raw(_ text: String) {
        if !log.isStructured { write(text) }
    }

    private static func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

extension RowWriter.Format: ExpressibleByArgument {}

/// Opens a spreadsheet for a command, turning reader errors into input failures (exit 1).
func openSpreadsheet(_ path: String) throws -> SpreadsheetFile {
    do {
        return try SpreadsheetFile.open(path: path)
    } catch {
        throw InputFailure(underlying: error)
    }
}
