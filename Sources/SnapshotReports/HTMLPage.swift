import Snapshot
import WebAssets

/// What the review page and the gallery share: the document around their body, HTML escaping and
/// the script that tells the tests (and a reader) whether every image loaded.
package enum HTMLPage {
  /// A whole self-contained page: `css` and `script` inline, `bodyAttributes` (already escaped,
  /// with a leading space) on `<body>`, which starts in the `loading` state.
  package static func document(
    title: String, css: String, bodyAttributes: String, body: String, script: String
  ) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(escape(title))</title>
    <style>\(css)</style>
    </head>
    <body\(bodyAttributes) data-state="loading">
    \(body)
    <script>\(script)</script>
    </body>
    </html>

    """
  }

  /// Escapes text for HTML content and attributes (the XML escaping of the JUnit writer: `&`, `<`,
  /// `>`, both quotes; control characters dropped).
  package static func escape(_ text: String) -> String {
    JUnitXML.escape(text, attribute: false)
  }

  /// JavaScript defining `settleImages(body)`: the body's `data-images-total` (images that have
  /// settled), `data-images-loaded`, `data-images-pending` (lazy images not requested yet: below
  /// the fold, in a closed group or a hidden view) and `data-state` (`ready` when every settled
  /// image loaded, else `broken-images`), updated again as each pending image settles. The file
  /// `settle-images.js` of the `WebAssets` target.
  package static let settleImagesScript = WebAssets.settleImagesScript
}
