/// The iOS text styles and their metrics at each Dynamic Type size (G9): the point size and the
/// line height (leading) of Apple's Human Interface Guidelines tables, "Typography", "iOS,
/// iPadOS Dynamic Type sizes" (developer.apple.com/design/human-interface-guidelines/typography),
/// for the default design. The bold and semibold forms the seeds ask for (`.title3.bold()`,
/// `.subheadline.weight(.semibold)`) keep the style's size and leading: the tables give one row per
/// style for both weights.
///
/// stackplay lays out no text. It uses these numbers where a seed's own layout depends on text
/// whose content the seed fixes (the notification stack's header, N18) and for
/// `@ScaledMetric(relativeTo:)` (the wallet's peek, W12). Card contents are the user's: their
/// heights stay the input.
public enum TextStyle: String, Sendable, CaseIterable {
    case largeTitle, title1, title2, title3, headline, body, callout, subheadline, footnote, caption1,
        caption2

    /// One style at one size, in points.
    public struct Metrics: Hashable, Sendable {
        public var size: Double
        public var lineHeight: Double
    }

    /// The style's size and line height at `dynamicTypeSize`.
    public func metrics(at dynamicTypeSize: DynamicTypeSize) -> Metrics {
        let index = DynamicTypeSize.allCases.firstIndex(of: dynamicTypeSize)!
        let (sizes, leadings) = Self.table[self]!
        return Metrics(size: sizes[index], lineHeight: leadings[index])
    }

    /// `metrics(at:).lineHeight`: the height of one line of the style.
    public func lineHeight(at dynamicTypeSize: DynamicTypeSize) -> Double {
        metrics(at: dynamicTypeSize).lineHeight
    }

    /// Sizes and leadings, xSmall … xxxLarge then AX1 … AX5 (`DynamicTypeSize.allCases`' order).
    private static let table: [TextStyle: (sizes: [Double], leadings: [Double])] = [
        .largeTitle: (
            [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60],
            [38, 39, 40, 41, 43, 46, 48, 52, 57, 61, 66, 70]
        ),
        .title1: (
            [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58],
            [31, 32, 33, 34, 37, 39, 41, 46, 51, 57, 62, 68]
        ),
        .title2: (
            [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56],
            [24, 25, 26, 28, 30, 32, 34, 41, 47, 52, 59, 66]
        ),
        .title3: (
            [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55],
            [22, 23, 24, 25, 28, 30, 32, 38, 44, 51, 58, 65]
        ),
        .headline: (
            [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53],
            [19, 20, 21, 22, 24, 26, 29, 34, 40, 48, 56, 62]
        ),
        .body: (
            [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53],
            [19, 20, 21, 22, 24, 26, 29, 34, 40, 48, 56, 62]
        ),
        .callout: (
            [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51],
            [18, 19, 20, 21, 23, 25, 28, 32, 39, 46, 52, 60]
        ),
        .subheadline: (
            [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49],
            [16, 18, 19, 20, 22, 24, 28, 31, 37, 43, 50, 58]
        ),
        .footnote: (
            [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44],
            [16, 16, 16, 18, 20, 22, 24, 29, 33, 40, 46, 52]
        ),
        .caption1: (
            [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43],
            [13, 13, 13, 16, 19, 21, 23, 28, 32, 39, 44, 51]
        ),
        .caption2: (
            [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40],
            [13, 13, 13, 13, 18, 20, 22, 25, 30, 35, 41, 48]
        ),
    ]
}
