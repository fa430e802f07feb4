import Foundation

/// Runs the built `ddkpi` binary as a user would, capturing its exit status and output.
public enum CommandRunner {
    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The `ddkpi` executable beside the test bundle (`swift test` builds it first).
    public static var executable: URL {
        let beside = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("ddkpi")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "ddkpi")
    }

    @discardableResult
    public static func ddkpi(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil)
        throws -> Result
    {
        try run(executable, arguments, environment: environment, in: directory)
    }

    /// Runs another program (found on `PATH` when not a path) and captures its output.
    @discardableResult
    public static func run(_ program: String, _ arguments: [String]) throws -> Result {
        let path =
            program.contains("/")
            ? program
            : (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
                .split(separator: ":").map { "\($0)/\(program)" }.first {
                    FileManager.default.isExecutableFile(atPath: $0)
                } ?? program
        return try run(URL(fileURLWithPath: path), arguments, environment: [:], in: nil)
    }

    private static func run(_ executable: URL, _ arguments: [String], environment: [String: String], in directory: URL?)
        throws
        -> Result
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        process.environment = variables
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
