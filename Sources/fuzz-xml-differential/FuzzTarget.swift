import FuzzSupport
@_spi(Fuzzing) import SheetStream

#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer target: worksheet XML through `XMLScanner` and through libxml2; any difference in
/// the rows, or in success and failure, is a finding (the process aborts on it).
#if FUZZING
    /// The entry point SwiftPM links the executable against, handing control to libFuzzer.
    @_cdecl("fuzz_xml_differential_main")
    func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        FuzzDriver.run("fuzz-xml-differential", argc: argc, argv: argv, fuzzOneInput)
    }

    /// One input (libFuzzer's `LLVMFuzzerTestOneInput`).
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = FuzzDriver.bytes(data, size)
        let scanned = FuzzEntryPoints.worksheetRows(bytes, libxml2: false)
        let parsed = FuzzEntryPoints.worksheetRows(bytes, libxml2: true)
        if !scanned.agrees(with: parsed) {
            FuzzDriver.fail("divergence:\n  XMLScanner: \(scanned)\n  libxml2:    \(parsed)\n")
        }
        return 0
    }
#else
    /// Built without `-sanitize=fuzzer`, the target only says how to build it.
    @main
    enum Target {
        static func main() { exit(FuzzDriver.run("fuzz-xml-differential", argc: 0, argv: nil) { _, _ in 0 }) }
    }
#endif
