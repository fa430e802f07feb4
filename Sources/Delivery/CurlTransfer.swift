import CCurl
import Foundation

/// One libcurl easy handle for one transfer (SMTP or HTTP): options set through checked
/// calls, the request body read from memory, the response discarded. One owner frees it.
final class CurlTransfer {
    private let handle: UnsafeMutableRawPointer
    private var lists: [UnsafeMutablePointer<curl_slist>] = []
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var upload: UploadBody?

    /// libcurl's global state, set up once per process.
    private static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// A transfer to `url` that gives up after `timeout` seconds; only `protocols` are allowed.
    init(url: String, timeout: Int, protocols: String) throws {
        guard Self.initialised, let handle = curl_easy_init() else { throw DeliveryError("libcurl: cannot start") }
        self.handle = handle
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        try check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        try set(CURLOPT_URL, url)
        try set(CURLOPT_PROTOCOLS_STR, protocols)
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_TIMEOUT, timeout)
        try set(CURLOPT_CONNECTTIMEOUT, timeout)
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        try check(ccurl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, { _, size, count, _ in size * count }))
    }

    deinit {
        curl_easy_cleanup(handle)
        for list in lists { curl_slist_free_all(list) }
        for string in strings { free(string) }
        errorBuffer.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int) throws { try check(ccurl_setopt_long(handle, option, value)) }

    /// Sets a string option; libcurl copies most strings, this keeps a copy alive anyway.
    func set(_ option: CURLoption, _ value: String) throws {
        guard let copy = strdup(value) else { throw DeliveryError("libcurl: out of memory") }
        strings.append(copy)
        try check(ccurl_setopt_string(handle, option, copy))
    }

    /// Sets a list option (headers, recipients).
    func set(_ option: CURLoption, list values: [String]) throws {
        var list: UnsafeMutablePointer<curl_slist>?
        for value in values {
            guard let appended = curl_slist_append(list, value) else {
                if let list { curl_slist_free_all(list) }
                throw DeliveryError("libcurl: out of memory")
            }
            list = appended
        }
        guard let list else { return }
        lists.append(list)
        try check(ccurl_setopt_slist(handle, option, list))
    }

    /// The request body, read by libcurl from memory (an SMTP upload, or an HTTP POST).
    func setUpload(_ bytes: [UInt8], post: Bool) throws {
        let body = UploadBody(bytes)
        upload = body
        try check(
            ccurl_setopt_callback(
                handle, CURLOPT_READFUNCTION,
                { buffer, size, count, context in
                    guard let buffer, let context else { return 0 }
                    return Unmanaged<UploadBody>.fromOpaque(context).takeUnretainedValue().read(
                        into: buffer, capacity: size * count)
                }))
        try check(ccurl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(body).toOpaque()))
        if post {
            try set(CURLOPT_POST, 1)
            try set(CURLOPT_POSTFIELDSIZE, bytes.count)
        } else {
            try set(CURLOPT_UPLOAD, 1)
            try set(CURLOPT_INFILESIZE, bytes.count)
        }
    }

    /// Runs the transfer; the response code (HTTP status, or the SMTP server's last reply).
    func perform() throws -> Int {
        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else { throw DeliveryError(message(code)) }
        var response = 0
        _ = ccurl_response_code(handle, &response)
        return response
    }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else { throw DeliveryError(message(code)) }
    }

    /// libcurl's words for `code`, with its error buffer's detail when it has one.
    private func message(_ code: CURLcode) -> String {
        let summary = String(cString: curl_easy_strerror(code))
        let detail = String(cString: errorBuffer)
        return detail.isEmpty || detail == summary ? "curl: \(summary)" : "curl: \(summary): \(detail)"
    }
}

/// Bytes libcurl reads from, in order.
private final class UploadBody {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let count = min(capacity, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            UnsafeMutableRawPointer(buffer).copyMemory(from: base + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
