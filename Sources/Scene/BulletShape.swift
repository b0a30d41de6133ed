/// A theme's bullet or check-mark shape, defined in a 24×24 viewport (SPEC §4).
public enum BulletShape: String, Codable, Sendable, CaseIterable {
  /// Orange level 0: filled square 9.4×9.4.
  case orangeSquare = "orange.square"
  /// Orange level 1: filled horizontal bar 9.4×3.5.
  case orangeBar = "orange.bar"
  /// Orange level 2: small filled square 5.5×5.5.
  case orangeSmallSquare = "orange.small-square"
  /// Orange check mark.
  case orangeTick = "orange.tick"
  /// Sosh level 0: filled disc ⌀9.
  case soshDisc = "sosh.disc"
  /// Sosh level 1: pill 9.4×3.5 with round ends.
  case soshPill = "sosh.pill"
  /// Sosh level 2: small disc ⌀5.5.
  case soshSmallDisc = "sosh.small-disc"
  /// Sosh rounded check mark.
  case soshTick = "sosh.tick"
  /// Wireframe level 0: filled four-point sparkle.
  case wireframeSparkle = "wireframe.sparkle"
  /// Wireframe level 1: sparkle with a thick outline.
  case wireframeSparkleThickOutline = "wireframe.sparkle-thick-outline"
  /// Wireframe level 2: sparkle with a thin outline.
  case wireframeSparkleThinOutline = "wireframe.sparkle-thin-outline"
  /// Wireframe rounded check mark.
  case wireframeTick = "wireframe.tick"
}
