/// A problem parsing an XML part of a workbook: malformed XML, a forbidden DTD, or content
/// that breaks the part's schema (such as a shared-string index out of range).
public struct XMLError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var part: String
    /// The 1-based line in the part, when libxml2 knows it.
    public var line: Int?
    /// The 0-based byte offset in the (inflated) part, when the parser reports offsets.
    public var byteOffset: Int?
    public var message: String

    public init(file: String, part: String, line: Int? = nil, byteOffset: Int? = nil, message: String) {
        self.file = file
        self.part = part
        self.line = line
        self.byteOffset = byteOffset
        self.message = message
    }

    public var description: String {
        "\(file): \(part)\(line.map { " line \($0)" } ?? "")\(byteOffset.map { " byte \($0)" } ?? ""): \(message)"
    }
}
