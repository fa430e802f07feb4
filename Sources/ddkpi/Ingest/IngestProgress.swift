import Feeds
import Ingest
import OutputText
import Warehouse

#if canImport(Glibc)
    import Glibc
#endif

extension FileIngestor {
    /// Ingests `path` with a progress line on a terminal for large files.
    func ingestShowingProgress(_ path: String) -> IngestOutcome {
        let progress = ProgressLine.forFile(path)
        return ingest(path, progress: progress, finished: progress == nil ? nil : ProgressLine.clear)
    }
}

/// A `\r`-rewritten progress line on standard error, only on a terminal and for files over 4 MiB.
enum ProgressLine {
    static func forFile(_ path: String) -> ((Int) -> Void)? {
        var info = stat()
        guard isatty(2) == 1, stat(path, &info) == 0, info.st_size > 4 << 20 else { return nil }
        let name = ControlCharacters.escaped(FeedFileReader.fileName(path))
        return { rows in Diagnostics.raw("\r\(name): \(rows) rows read…") }
    }

    static func clear() { Diagnostics.raw("\r\u{1B}[K") }
}
