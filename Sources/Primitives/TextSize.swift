/// iOS Dynamic Type: the text size a person chooses in Settings › Accessibility › Display & Text
/// Size, under the names UIKit and SwiftUI give it (`UIContentSizeCategory`,
/// `ContentSizeCategory`). `large` is the default.
public enum ContentSizeCategory: String, Codable, Hashable, Sendable, CaseIterable, NamedValue {
  /// xSmall: body text 14 pt.
  case xSmall
  /// small: body 15 pt.
  case small
  /// medium: body 16 pt.
  case medium
  /// large, the default: body 17 pt.
  case large
  /// xLarge: body 19 pt.
  case xLarge
  /// xxLarge: body 21 pt.
  case xxLarge
  /// xxxLarge, the largest size offered without the accessibility sizes: body 23 pt.
  case xxxLarge
  /// Accessibility Medium: body 28 pt.
  case accessibility1
  /// Accessibility Large: body 33 pt.
  case accessibility2
  /// Accessibility Extra Large: body 40 pt.
  case accessibility3
  /// Accessibility Extra Extra Large: body 47 pt.
  case accessibility4
  /// Accessibility Extra Extra Extra Large: body 53 pt.
  case accessibility5

  /// `content size`, in messages about an unknown name.
  public static let kindName = "content size"

  /// The point size of the body text style in this category (Apple's Human Interface Guidelines,
  /// SPEC §6b).
  public var bodyPointSize: Double {
    switch self {
    case .xSmall: 14
    case .small: 15
    case .medium: 16
    case .large: 17
    case .xLarge: 19
    case .xxLarge: 21
    case .xxxLarge: 23
    case .accessibility1: 28
    case .accessibility2: 33
    case .accessibility3: 40
    case .accessibility4: 47
    case .accessibility5: 53
    }
  }

  /// What a custom font size scales by in this category: `UIFontMetrics` relative to the body
  /// style, body size / 17 (1 at `large`).
  public var factor: Double { bodyPointSize / ContentSizeCategory.large.bodyPointSize }

  /// The lower-case name used in file names and variant suffixes (`accessibility5`, `xxxlarge`).
  public var fileName: String { rawValue.lowercased() }
}

/// Android's font scale (Settings › Display › Font size, Paparazzi's `fontScale`): 1 is the
/// default; phones offer 0.85 to 2.0.
public enum FontScale {
  /// The scales the renderer draws: Android's smallest setting below, and twice its largest
  /// above (beyond 2.0 Android scales linearly).
  public static let supported: ClosedRange<Double> = 0.85...4.0
  /// What a value must be, as error messages say it after "expected": `Android's font scale, a
  /// number from 0.85 to 4`.
  public static var expectation: String {
    "Android's font scale, a number from \(text(supported.lowerBound)) to \(text(supported.upperBound))"
  }

  /// The default: text at its token size.
  public static let standard = 1.0

  /// `1.5`, `2`, `0.85`: the shortest decimal text of `scale`, for messages and file names.
  public static func text(_ scale: Double) -> String {
    scale.rounded() == scale ? String(Int(scale)) : String(scale)
  }
}
