/// A file that could not be written.
public struct OutputError: Error, CustomStringConvertible {
    /// The file.
    public var path: String
    /// Why (the system's error text).
    public var message: String
    /// `path: cannot write: message`.
    public var description: String { "\(path): cannot write: \(message)" }
}
