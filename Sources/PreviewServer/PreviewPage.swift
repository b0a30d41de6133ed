import WebAssets

/// The preview page: one HTML file, its script and its style, served as they are (no markup from
/// data: the script builds the page from `/config.json` with text nodes only): the files
/// `preview.html`, `.js` and `.css` of the `WebAssets` target.
enum PreviewPage {
  /// `/`.
  static let html = WebAssets.previewPage

  /// `/preview.css`.
  static let style = WebAssets.previewStyle

  /// `/preview.js`.
  static let script = WebAssets.previewScript
}
