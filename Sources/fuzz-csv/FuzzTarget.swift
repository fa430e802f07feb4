import FuzzSupport
@_spi(Fuzzing) import SheetStream

#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer target: the CSV reader on arbitrary bytes (a file in /dev/shm), read with its fast
/// path for simple records, through the state machine alone, and on a reading thread that hands
/// rows to this one in small batches (a third of the inputs split by their first byte, the rest
/// by the sniffed delimiter); any difference in the rows, the warnings or the error is a finding
/// (the process aborts on it).
#if FUZZING
    /// The file every input is written to, which the reader reads through its descriptor.
    let inputFile = InputFile()

    /// The entry point SwiftPM links the executable against, handing control to libFuzzer.
    @_cdecl("fuzz_csv_main")
    func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        FuzzDriver.run("fuzz-csv", argc: argc, argv: argv, fuzzOneInput)
    }

    /// One input (libFuzzer's `LLVMFuzzerTestOneInput`).
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        inputFile.write(data, size)
        // A third of the inputs are split by their first byte, whatever it is; the rest by the
        // sniffed delimiter.
        let delimiter = size % 3 == 0 ? data?.pointee : nil
        // Chunks small enough for a short input to cross their boundaries, and batches of one to
        // three records: every record boundary, or every second or third, crosses the threads,
        // which a batch of the default size would not in a short input.
        let chunkSize = 16 << (2 * (size / 9 % 4))
        let batchSize = size / 3 % 3 + 1
        let (fast, stateMachine, concurrent) = FuzzEntryPoints.readCSV(
            descriptor: inputFile.descriptor, delimiter: delimiter, chunkSize: chunkSize, batchSize: batchSize)
        if fast != stateMachine || concurrent != fast {
            FuzzDriver.fail(
                "divergence:\n  fast path:     \(fast)\n  state machine: \(stateMachine)\n  two threads:   \(concurrent)\n"
            )
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
