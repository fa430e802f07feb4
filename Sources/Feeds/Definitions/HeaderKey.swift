/// Header text reduced for matching: lowercased, letters and digits only, so that `Net Sales`,
/// `NET_SALES` and `net sales ($)` all become `netsales`; `#` reads as the word `no` first, so
/// `Store #`, `Store#` and `Store No` all become `storeno` (SPEC section 3).
public enum HeaderKey {
    public static func normalize(_ text: String) -> String {
        var key = ""
        for scalar in text.unicodeScalars {
            if scalar == "#" {
                key += "no"
            } else if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                key.unicodeScalars.append(contentsOf: String(scalar).lowercased().unicodeScalars)
            }
        }
        return key
    }
}
