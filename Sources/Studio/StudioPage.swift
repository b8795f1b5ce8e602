import Foundation

/// The studio's one page: Sources/Studio/Page/studio.html with its stylesheet and script inlined
/// (compiled in through ``EmbeddedPage``, `make viewer`). It fetches nothing but its WebSocket and
/// the trace viewer's page of a result.
enum StudioPage {
    static let html = EmbeddedPage.html
        .replacingOccurrences(of: "/*STYLE*/", with: EmbeddedPage.css)
        .replacingOccurrences(of: "/*SCRIPT*/", with: EmbeddedPage.js)
}
