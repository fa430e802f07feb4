/// A problem reading a CSV file, placed by record, line and byte:
/// `feed.csv record 12 (line 13, byte 402): field is longer than 1048576 bytes (the limit)`.
public struct CSVError: Error, CustomStringConvertible, Sendable {
    public var file: String
    /// 1-based record number (a quoted newline does not start a record).
    public var record: Int
    /// 1-based physical line of the problem: where the record starts, or for a size limit, the
    /// line of the byte that crosses it.
    public var line: Int
    /// 0-based byte offset of the problem in the file (for a size limit, of the first byte past it).
    public var byteOffset: Int
    public var message: String

    public var description: String {
        "\(file) record \(record) (line \(line), byte \(byteOffset)): \(message)"
    }
}
