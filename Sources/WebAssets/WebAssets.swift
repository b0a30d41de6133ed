/// The style sheets, scripts and HTML templates of the tool's web pages, kept as files of this
/// folder (so that they are edited, linted and syntax-checked as CSS, JavaScript and HTML) and
/// compiled into the code by SwiftPM (`.embedInCode` in Package.swift).
///
/// Embedded rather than copied into a resource bundle: the pages are written wherever the library
/// or the `ouds-render` binary runs, with nothing to find at run time (no bundle beside the
/// executable, no `Bundle.module`, whose accessor would link all of Foundation), so the static
/// release binary stays self-contained. Each file ends with a newline, as editors write it; the
/// text here is the file without that last newline, as the pages have always held it.
///
/// None of them holds data of a run: the pages carry it in escaped attributes or fetch it as
/// JSON, and the scripts write only text (`textContent`), never markup.
package enum WebAssets {
  /// `settle-images.js`: defines `settleImages(body)`, which tells the tests (and a reader)
  /// whether every image of the page loaded (see `HTMLPage.settleImagesScript`).
  package static let settleImagesScript = text(PackageResources.settle_images_js)

  /// `review-report.css`: the style of a verify run's review page (`index.html`).
  package static let reviewReportStyle = text(PackageResources.review_report_css)
  /// `review-report.js`: the review page's views, fitting, filter, selection, keys and the state
  /// in the URL fragment.
  package static let reviewReportScript = text(PackageResources.review_report_js)

  /// `gallery.css`: the style of the gallery page.
  package static let galleryStyle = text(PackageResources.gallery_css)
  /// `gallery.js`: the gallery page's filters and the state in the URL fragment.
  package static let galleryScript = text(PackageResources.gallery_js)

  /// `snapshot-review.html`: the page of `snapshot review`, with `{{secret}}` where the secret
  /// a POST must carry goes (see ``snapshotReviewPage(secret:)``).
  package static let snapshotReviewTemplate = text(PackageResources.snapshot_review_html)
  /// `snapshot-review.css`: served as `/review.css`.
  package static let snapshotReviewStyle = text(PackageResources.snapshot_review_css)
  /// `snapshot-review.js`: served as `/review.js`; builds the page from `/state.json` with text
  /// nodes only.
  package static let snapshotReviewScript = text(PackageResources.snapshot_review_js)

  /// The page of `snapshot review` holding `secret` in its `<meta name="review-secret">`, as is:
  /// the server makes it of hexadecimal digits (`ReviewSite.makeSecret()`).
  package static func snapshotReviewPage(secret: String) -> String {
    snapshotReviewTemplate.replacing("{{secret}}", with: secret)
  }

  /// `preview.html`: the page of `preview`, served as `/`.
  package static let previewPage = text(PackageResources.preview_html)
  /// `preview.css`: served as `/preview.css`.
  package static let previewStyle = text(PackageResources.preview_css)
  /// `preview.js`: served as `/preview.js`; builds the page from `/config.json` with text nodes
  /// only.
  package static let previewScript = text(PackageResources.preview_js)
  /// `preview-docs.js`: served as `/docs.js`; `previewDocs.show(query, signal)` fills the docs
  /// view from `/docs.json` with text nodes only.
  package static let previewDocsScript = text(PackageResources.preview_docs_js)
  /// `preview-docs.css`: served as `/docs.css`, the docs view's style.
  package static let previewDocsStyle = text(PackageResources.preview_docs_css)

  /// A file's text: UTF-8, without the final newline every file of this folder ends with.
  static func text(_ bytes: [UInt8]) -> String {
    let body = bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...]
    return String(decoding: body, as: UTF8.self)
  }
}
