extension String {
    /// Calls `body` with the text's UTF-8 bytes: a native string lends its own storage, a small
    /// one its bytes from the stack, so nothing is copied to the heap. The normalizers' byte
    /// loops run over this buffer: a loop over `utf8` costs several times as much per byte
    /// (docs/decisions.md#measured-reasons-behind-the-code).
    @inline(__always) func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        var text = self
        return try text.withUTF8(body)
    }
}
