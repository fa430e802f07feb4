/// A document that could not be written: the file, where in it, and why.
public struct DocumentError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
