import Feeds

/// The file's bytes already ingested `ok`, as `feed`.
struct DuplicateFile: Error {
    let feed: FeedID
}
