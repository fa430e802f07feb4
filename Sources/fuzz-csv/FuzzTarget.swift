import FuzzSupport
@_spi(Fuzzing) import SheetStream

#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer target: the CSV reader on arbitrary bytes (a file in /dev/shm).
#if FUZZING
    /// The entry point SwiftPM links the executable against, handing control to libFuzzer.
    @_cdecl("fuzz_csv_main")
    func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        FuzzDriver.run("fuzz-csv", argc: argc, argv: argv, fuzzOneInput)
    }

    /// One input (libFuzzer's `LLVMFuzzerTestOneInput`).
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        FuzzEntryPoints.readCSV(path: FuzzDriver.file(data, size, suffix: ".csv"))
        return 0
    }
#else
    /// Built without `-sanitize=fuzzer`, the target only says how to build it.
    @main
    enum Target {
        static func main() { exit(FuzzDriver.run("fuzz-csv", argc: 0, argv: nil) { _, _ in 0 }) }
    }
#endif
