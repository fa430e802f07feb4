import CivilCalendar
import Foundation

/// What the documents of one run share beyond their data (SPEC sections 19 and 20).
public struct DocumentOptions: Sendable, Equatable {
    /// A change smaller than this fraction (`0.005`: 0.5 %) is not coloured; its ▲/▼ stays
    /// (`[documents] neutral_band`).
    public var neutralBand: Double
    /// The last day of data the document reflects: "data through D" in its printed footer and
    /// its heading. `nil`: not said.
    public var dataThrough: CivilDate?
    /// A warning at the top of the document (publish's "Data late: …"); `nil`: none.
    public var banner: String?

    public init(neutralBand: Double = 0.005, dataThrough: CivilDate? = nil, banner: String? = nil) {
        self.neutralBand = neutralBand
        self.dataThrough = dataThrough
        self.banner = banner
    }
}

/// How a change is shown: the ▲/▼ of its rounded text always, colour only outside the neutral band.
enum ChangeTone: Equatable {
    case up, down, level

    /// The tone of `value` with changes smaller than `band` (a fraction) left uncoloured.
    init(_ value: Double?, band: Double) {
        guard let value, value.isFinite, abs(value) >= band else {
            self = .level
            return
        }
        let text = NumberText.change(value)
        self = text.hasPrefix("▲") ? .up : text.hasPrefix("▼") ? .down : .level
    }

    /// The CSS class of a cell or label in this tone.
    var className: String {
        switch self {
        case .up: return "up-text"
        case .down: return "down-text"
        case .level: return "level"
        }
    }
}

/// The colours of chart marks, each at least 3:1 against white, and actual against target
/// (SPEC section 20); last year is a hollow bar, told apart by its shape.
enum ChartPalette {
    static let actual = 0x163B6B
    static let target = 0x8A9199
    static let lastYear = 0xA65300
    static let up = 0x2E8540
    static let down = 0xC23A44

    /// `#RRGGBB`.
    static func css(_ colour: Int) -> String {
        let hex = String(colour, radix: 16, uppercase: false)
        return "#" + String(repeating: "0", count: 6 - hex.count) + hex
    }

    /// WCAG 2's contrast ratio of two colours (1 to 21).
    static func contrast(_ first: Int, _ second: Int) -> Double {
        let (one, two) = (luminance(first), luminance(second))
        return (max(one, two) + 0.05) / (min(one, two) + 0.05)
    }

    /// WCAG 2's relative luminance of `0xRRGGBB`.
    static func luminance(_ colour: Int) -> Double {
        func channel(_ shift: Int) -> Double {
            let value = Double((colour >> shift) & 0xFF) / 255
            return value <= 0.039_28 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
    }
}
