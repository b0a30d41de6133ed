import BulletList
import BulletListRenderer
import Graphics
import Layout
import PNG
import PixelDiff
import Primitives
import Scene
import Snapshot
import SnapshotReports
import Themes

/// A failure while reviewing a token change: the render or the tokens of one side.
public enum TokenReviewError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Rendering with the old themes folder (`--compare-themes`) failed.
  case before(RenderError, themes: String)
  /// Rendering with the current themes folder failed.
  case after(RenderError)
  /// A context of the old themes folder does not resolve, so its tokens cannot be compared.
  case oldTokens(ThemeError, themes: String)
  /// A context of the current themes folder does not resolve.
  case newTokens(ThemeError)

  /// One line naming the side, the file and the problem.
  public var description: String {
    switch self {
    case .before(let error, let themes):
      "\(error) (rendering with the themes compared against, \(MessageText.path(themes)))"
    case .after(let error): "\(error)"
    case .oldTokens(let error, let themes):
      "\(error) (in the themes compared against, \(MessageText.path(themes)))"
    case .newTokens(let error): "\(error)"
    }
  }
}

/// One list drawn with the old and the new tokens in one theme, mode and platform: both
/// pictures, the pixel diff (the snapshot diff engine) and the rows that moved or changed colour.
public struct ReviewedPicture: Sendable {
  /// The theme.
  public var theme: ThemeName
  /// The mode.
  public var mode: ColorMode
  /// Whose rules the pictures follow.
  public var platform: Platform
  /// Pixels per point of the pictures.
  public var scale: Int
  /// The picture with the old tokens.
  public var before: RasterImage
  /// The picture with the new tokens.
  public var after: RasterImage
  /// The scene of `before`.
  public var beforeScene: Scene
  /// The scene of `after`.
  public var afterScene: Scene
  /// The exact pixel comparison of `after` with `before`.
  public var diff: DiffResult
  /// The diff picture (PixelDiff's `ImageDiff.diffImage(expected:actual:result:)`: `before` ghosted, changed
  /// pixels red); nil when the pictures are identical.
  public var diffImage: RasterImage?
  /// The rows that moved, changed size or colour, or appeared or disappeared.
  public var rowChanges: [RowChange]
  /// Warnings of the new layout.
  public var warnings: [String]

  /// Whether the background colour changed.
  public var backgroundChanged: Bool { beforeScene.background != afterScene.background }

  /// Whether nothing differs: same pixels, same rows, same background.
  public var isUnchanged: Bool { diff == .identical && rowChanges.isEmpty && !backgroundChanged }

  /// Lines that say what differs besides the rows: the canvas size, the background, the pixels.
  public var summary: [String] {
    var lines: [String] = []
    if beforeScene.width != afterScene.width || beforeScene.height != afterScene.height {
      lines.append(
        "canvas \(Self.number(beforeScene.width))×\(Self.number(beforeScene.height)) → \(Self.number(afterScene.width))×\(Self.number(afterScene.height)) pt"
      )
    }
    if backgroundChanged {
      lines.append(
        "background \(beforeScene.background?.hex ?? "none") → \(afterScene.background?.hex ?? "none")"
      )
    }
    switch diff {
    case .identical: lines.append("pixels identical")
    case .sizeMismatch(let expected, let actual): lines.append("picture \(expected) → \(actual) px")
    default: lines.append(diff.summary)
    }
    return lines
  }

  /// Renders `list` with `before` and `after` in one theme, mode and platform and compares them.
  /// - Throws: `TokenReviewError` naming the side that failed.
  public static func compare(
    _ list: OUDSBulletList, theme: ThemeName, mode: ColorMode, options: LayoutOptions, scale: Int,
    before: BulletListRenderer, after: BulletListRenderer
  ) throws(TokenReviewError) -> ReviewedPicture {
    let old: (image: RasterImage, scene: Scene, warnings: [String])
    let new: (image: RasterImage, scene: Scene, warnings: [String])
    do {
      old = try before.rasterize(list, theme: theme, mode: mode, options: options, scale: scale)
    } catch {
      throw .before(error, themes: before.themesLocation.directory.path)
    }
    do {
      new = try after.rasterize(list, theme: theme, mode: mode, options: options, scale: scale)
    } catch {
      throw .after(error)
    }
    let diff = ImageDiff.compare(expected: old.image, actual: new.image)
    return ReviewedPicture(
      theme: theme, mode: mode, platform: options.platform, scale: scale, before: old.image,
      after: new.image,
      beforeScene: old.scene, afterScene: new.scene, diff: diff,
      diffImage: diff == .identical
        ? nil : ImageDiff.diffImage(expected: old.image, actual: new.image, result: diff),
      rowChanges: RowChange.changes(before: old.scene, after: new.scene), warnings: new.warnings)
  }

  private static func number(_ value: Double) -> String {
    let rounded = value.roundedToHundredths
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }
}

/// One theme and mode of a token review: the tokens that changed and the pictures of each platform.
public struct ReviewedCombination: Sendable {
  /// The theme.
  public var theme: ThemeName
  /// The mode.
  public var mode: ColorMode
  /// The tokens of this theme and mode whose resolved value changed, by path.
  public var tokenChanges: [TokenChange]
  /// One comparison per platform asked for.
  public var pictures: [ReviewedPicture]

  /// Whether nothing differs: no token, no row, no pixel.
  public var isUnchanged: Bool { tokenChanges.isEmpty && pictures.allSatisfy(\.isUnchanged) }

  /// `Orange · light`.
  public var title: String { "\(theme.displayName) · \(mode.rawValue)" }
}

/// The review of a token change on one list: for each theme and mode, the changed tokens (from the
/// two resolved token sets) and, per platform, before, after and diff pictures with the rows that
/// moved or changed colour (from the two layout scenes).
public struct TokenReview: Sendable {
  /// The themes folder compared against (the old tokens).
  public var oldThemes: ThemesLocation
  /// The themes folder in use (the new tokens).
  public var newThemes: ThemesLocation
  /// Every theme × mode asked for, theme first.
  public var combinations: [ReviewedCombination]

  /// Every changed token, one line each (`TokenChange.line` of Themes), in combination order.
  public var tokenLines: [String] { combinations.flatMap { $0.tokenChanges.map(\.line) } }

  /// The combinations in which something differs.
  public var changed: [ReviewedCombination] { combinations.filter { !$0.isUnchanged } }

  /// Compares `list` rendered with `before` (the old themes folder) and `after` (the current one)
  /// in every theme × mode of `themes` and `modes`, for each of `platforms`, at `scale`.
  /// - Throws: `TokenReviewError` naming the side that failed.
  public static func compare(
    _ list: OUDSBulletList, before: BulletListRenderer, after: BulletListRenderer,
    themes: [ThemeName] = ThemeName.allCases, modes: [ColorMode] = ColorMode.allCases,
    platforms: [Platform], options: LayoutOptions = LayoutOptions(), scale: Int = 2
  ) throws(TokenReviewError) -> TokenReview {
    var combinations: [ReviewedCombination] = []
    for theme in themes {
      for mode in modes {
        let changes = try tokenChanges(
          theme: theme, mode: mode, before: before.themes, after: after.themes)
        var pictures: [ReviewedPicture] = []
        for platform in platforms {
          let options = options.on(platform)
          pictures.append(
            try ReviewedPicture.compare(
              list, theme: theme, mode: mode, options: options, scale: scale, before: before,
              after: after))
        }
        combinations.append(
          ReviewedCombination(theme: theme, mode: mode, tokenChanges: changes, pictures: pictures))
      }
    }
    return TokenReview(
      oldThemes: before.themesLocation, newThemes: after.themesLocation, combinations: combinations)
  }

  /// The tokens of one theme and mode that changed from `before` to `after`.
  /// - Throws: `TokenReviewError` naming the library whose context does not resolve.
  public static func tokenChanges(
    theme: ThemeName, mode: ColorMode, before: ThemeLibrary, after: ThemeLibrary
  ) throws(TokenReviewError) -> [TokenChange] {
    do {
      _ = try before.tokens(theme, mode: mode)
    } catch {
      throw .oldTokens(error, themes: before.directory.path)
    }
    do {
      return try after.tokenChanges(from: before, theme: theme, mode: mode)
    } catch {
      throw .newTokens(error)
    }
  }
}
