import WebAssets

/// The preview's docs view (`view=docs` in the page's URL): its script and style, served as
/// they are beside the page's own (`/docs.js`, `/docs.css`). The script builds the view from
/// `/docs.json` (``PreviewContent/docs(for:)``) with text nodes only, no markup from data.
///
/// `/docs.json` is one object: `list`, `format` (`JSON` or `Markdown`), `source`,
/// `omittedLines`, `caseName`, `variantsDeclared`, `variants` (`name`, `reference`, `theme`,
/// `mode`, `platform`, `scale`, `textSize`, `width`, `settings`), `tokens` (per theme: `theme`,
/// `modes`, `rows` of `path` and `values` of `text`, `color`, `file`, `aliases`; `errors`),
/// `audits` (`title`, `background`, `backgroundToken`, `lines` of `element`, `colour`,
/// `swatches`, `ratio`, `needs`, `result`, `usedBy`, `token`; `notes`), `failures`,
/// `notChecked`, `spoken` (`reader`, `platform`, `language`, `languageCode`, `contexts`, `rows` of `row` and
/// `text`) and `warnings`.
enum PreviewDocsPage {
  /// `/docs.js`: `previewDocs.show(query, signal)` fills `#docs` and returns a status line.
  static let script = WebAssets.previewDocsScript

  /// `/docs.css`.
  static let style = WebAssets.previewDocsStyle
}
