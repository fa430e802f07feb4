extension Array {
    /// `map(transform)` on two cores: the second half on a background thread while this one does
    /// the first, the results in order. When no thread can be started, all on this one.
    public func mapInTwoHalves<Result>(_ transform: @escaping (Element) -> Result) -> [Result] {
        guard count > 1 else { return map(transform) }
        let secondHalf = Array(self[(count / 2)...])
        guard let background = try? BackgroundTask({ secondHalf.map(transform) }) else { return map(transform) }
        let first = self[..<(count / 2)].map(transform)
        guard let second = try? background.value() else { return first + secondHalf.map(transform) }
        return first + second
    }
}
