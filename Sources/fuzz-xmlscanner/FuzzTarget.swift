import FuzzSupport
@_spi(Fuzzing) import SheetStream

#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer target: XMLScanner alone on arbitrary bytes.
#if FUZZING
    /// The entry point SwiftPM links the executable against, handing control to libFuzzer.
    @_cdecl("fuzz_xmlscanner_main")
    func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        FuzzDriver.run("fuzz-xmlscanner", argc: argc, argv: argv, fuzzOneInput)
    }

    /// One input (libFuzzer's `LLVMFuzzerTestOneInput`).
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        FuzzEntryPoints.scanXML(FuzzDriver.bytes(data, size))
        return 0
    }
#else
    /// Built without `-sanitize=fuzzer`, the target only says how to build it.
    @main
    enum Target {
        static func main() { exit(FuzzDriver.run("fuzz-xmlscanner", argc: 0, argv: nil) { _, _ in 0 }) }
    }
#endif
