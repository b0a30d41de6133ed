import WebAssets

/// The page of `snapshot review`: one HTML file (which holds the secret), its script and its
/// style, the files `snapshot-review.html`, `.js` and `.css` of the `WebAssets` target. No markup
/// from data: the script builds the page from `/state.json` with text nodes only.
enum ReviewPage {
  /// `/`, with the secret a POST must carry in a `<meta>` the script reads (an inline script
  /// would need the Content-Security-Policy loosened).
  static func html(secret: String) -> String {
    WebAssets.snapshotReviewPage(secret: secret)
  }

  /// `/review.css`.
  static let style = WebAssets.snapshotReviewStyle

  /// `/review.js`.
  static let script = WebAssets.snapshotReviewScript
}
