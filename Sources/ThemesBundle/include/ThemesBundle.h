#ifndef OUDS_THEMES_BUNDLE_H
#define OUDS_THEMES_BUNDLE_H

/// The name of the resource bundle this target ships (`<name>.resources` beside the executable).
extern const char ouds_themes_bundle_name[];

#endif
