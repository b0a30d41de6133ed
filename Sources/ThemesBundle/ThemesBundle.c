// The `ThemesBundle` target exists for its resource bundle (the package's `Themes/` folder, copied
// beside the executable by SwiftPM; `ThemesLocation.packageBundleName` names it). This file only
// gives the target the one source file SwiftPM requires; nothing calls it.
#include "ThemesBundle.h"

const char ouds_themes_bundle_name[] = "OUDSBulletListRenderer_ThemesBundle";
