import FuzzSupport
@_spi(Fuzzing) import SheetStream

#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer target: the CSV reader on arbitrary bytes (a file in /dev/shm), read with its fast
/// path for simple records and through the state machine alone (a third of the inputs split by
/// their first byte, the rest by the sniffed delimiter); any difference in the rows, the
/// warnings or the error is a finding (the process aborts on it).
#if FUZZING
    /// The entry point SwiftPM links the executable against, handing control to libFuzzer.
    @_cdecl("fuzz_csv_main")
    func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        FuzzDriver.run("fuzz-csv", argc: argc, argv: argv, fuzzOneInput)
    }

    /// One input (libFuzzer's `LLVMFuzzerTestOneInput`).
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let path = FuzzDriver.file(data, size, suffix: ".csv")
        // A third of the inputs are split by their first byte, whatever it is; the rest by the
        // sniffed delimiter.
        let delimiter = size % 3 == 0 ? data?.pointee : nil
        let fast = FuzzEntryPoints.readCSV(path: path, fastPath: true, delimiter: delimiter)
        let stateMachine = FuzzEntryPoints.readCSV(path: path, fastPath: false, delimiter: delimiter)
        if fast != stateMachine {
            let report = "divergence:\n  fast path:     \(fast)\n  state machine: \(stateMachine)\n"
            _ = report.withCString { write(2, $0, strlen($0)) }
            abort()
        }
        return 0
    }
#else
    /// Built without `-sanitize=fuzzer`, the target only says how to build it.
    @main
    enum Target {
        static func main() { exit(FuzzDriver.run("fuzz-csv", argc: 0, argv: nil) { _, _ in 0 }) }
    }
#endif
