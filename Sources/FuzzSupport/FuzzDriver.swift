#if canImport(Glibc)
    import Glibc
#endif

/// One fuzz input: its bytes (valid only during the call).
public typealias FuzzInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

#if FUZZING
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // libFuzzer's C entry point, by its own name.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: FuzzInput
    ) -> Int32
#endif

/// Runs a libFuzzer target. Built with `-sanitize=fuzzer,address -DFUZZING` (see docs/fuzzing.md),
/// a target's `<module>_main` hands its arguments and its input callback to libFuzzer's
/// `LLVMFuzzerRunDriver`; built normally, it only says how to build it.
public enum FuzzDriver {
    public static func run(
        _ name: String, argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ input: FuzzInput
    ) -> Int32 {
        #if FUZZING
            var count = argc
            var arguments = argv
            return LLVMFuzzerRunDriver(&count, &arguments, input)
        #else
            let message =
                "\(name) is a libFuzzer target: build and run it with bash .ci/fuzz SECONDS \(name) (docs/fuzzing.md)\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            return 2
        #endif
    }

    /// The input as an array (copied; inputs are small).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Writes `report` to standard error and aborts: a finding that is not a crash of its own.
    public static func fail(_ report: String) -> Never {
        _ = report.withCString { write(2, $0, strlen($0)) }
        abort()
    }
}
