import FuzzSupport
@_spi(Fuzzing) import SheetStream

#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer target: the zip container, the workbook parts and every sheet's rows (a file in /dev/shm).
#if FUZZING
    /// The file every input is written to.
    let inputFile = InputFile()

    /// The entry point SwiftPM links the executable against, handing control to libFuzzer.
    @_cdecl("fuzz_xlsx_main")
    func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        FuzzDriver.run("fuzz-xlsx", argc: argc, argv: argv, fuzzOneInput)
    }

    /// One input (libFuzzer's `LLVMFuzzerTestOneInput`).
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        inputFile.write(data, size)
        FuzzEntryPoints.readWorkbook(path: inputFile.path)
        return 0
    }
#else
    /// Built without `-sanitize=fuzzer`, the target only says how to build it.
    @main
    enum Target {
        static func main() { exit(FuzzDriver.run("fuzz-xlsx", argc: 0, argv: nil) { _, _ in 0 }) }
    }
#endif
