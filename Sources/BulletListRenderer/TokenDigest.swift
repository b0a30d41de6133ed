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
  /// same values, whatever their files, aliases and formatting. `Snapshots/ENVIRONMENT.json`
  /// records it; a sheet compares it with the package's copy to say "edited".
  public var tokenDigest: String {
    SHA256Digest.hex(of: Data(canonicalTokenText().utf8))
  }
}
