import Primitives

/// The paper of a printed document (`sheet --page`): A4 or a 16:9 slide.
public enum PageSize: String, Codable, Hashable, Sendable, CaseIterable, NamedValue {
  /// ISO A4, 210 × 297 mm: 595.28 × 841.89 points, portrait or landscape.
  case a4
  /// A 16:9 slide, 960 × 540 points (13.33 × 7.5 inches, a presentation's default), always
  /// landscape.
  case widescreen = "16:9"

  /// `page size`, in messages about an unknown name.
  public static let kindName = "page size"

  /// The size used when none is given: A4, what a designer prints or attaches to a review.
  public static let standard = PageSize.a4

  /// Width and height in points; landscape puts the long side across (a 16:9 slide is always
  /// landscape).
  public func size(landscape: Bool) -> (width: Double, height: Double) {
    switch self {
    case .a4: landscape ? (841.89, 595.28) : (595.28, 841.89)
    case .widescreen: (960, 540)
    }
  }

  /// Whether the page may be turned: A4 can, a slide cannot.
  public var hasOrientations: Bool { self == .a4 }

  /// `A4 portrait`, `A4 landscape`, `16:9`.
  public func displayName(landscape: Bool) -> String {
    switch self {
    case .a4: landscape ? "A4 landscape" : "A4 portrait"
    case .widescreen: "16:9"
    }
  }
}
