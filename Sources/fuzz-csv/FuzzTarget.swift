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
        // Chunks small enough for a short input to cross their boundaries.
        let chunkSize = 16 << (2 * (size / 9 % 4))
        let (fast, stateMachine, concurrent) = FuzzEntryPoints.readCSV(
            descriptor: inputFile.descriptor, delimiter: delimiter, chunkSize: chunkSize,
            batchSize: batchSize(data, size))
        if fast != stateMachine || concurrent != fast {
            FuzzDriver.fail(
                "divergence:\n  fast path:     \(fast)\n  state machine: \(stateMachine)\n  two threads:   \(concurrent)\n"
            )
        }
        return 0
    }

    /// The records a batch of the two-thread read holds: one to three, so that a short input's
    /// rows cross the threads at every record boundary, or every second or third (a batch of the
    /// default size would never fill), and in an input of many records a sixteenth of its line
    /// ends, so that a few dozen batches cross at most: each crossing wakes a thread, and the
    /// hundredth reaches nothing the tenth did not.
    func batchSize(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int {
        let lineEnds = UnsafeBufferPointer(start: data, count: size).count { $0 == 0x0A || $0 == 0x0D }
        return max(size / 3 % 3 + 1, lineEnds / 16)
    }
#else
    /// Built without `-sanitize=fuzzer`, the target only says how to build it.
    @main
    enum Target {
        static func main() { exit(FuzzDriver.run("fuzz-csv", argc: 0, argv: nil) { _, _ in 0 }) }
    }
#endif
