import Fonts
import Graphics
import Themes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ThemeLibrary {
  /// The SHA-256 of the library's resolved tokens (``Themes/ThemeLibrary/canonicalTokenText()``),
  /// lower-case hex: equal for two themes folders exactly when every theme × mode resolves to the
  /// same values, whatever their files, aliases and formatting. A sheet compares it with the
  /// package's copy to say "edited".
  public var tokenDigest: String {
    SHA256Digest.hex(of: Data(canonicalTokenText().utf8))
  }

  /// The SHA-256 of the resolved tokens the renderer reads
  /// (``Themes/ThemeLibrary/renderTokenText()``), lower-case hex: equal for two themes folders
  /// exactly when every theme × mode draws from the same token values. `Snapshots/ENVIRONMENT.json`
  /// records it, so a token the renderer does not read (`color.content.status.negative`)
  /// neither invalidates the references nor hides a change that draws differently.
  public var renderTokenDigest: String {
    SHA256Digest.hex(of: Data(renderTokenText().utf8))
  }
}
