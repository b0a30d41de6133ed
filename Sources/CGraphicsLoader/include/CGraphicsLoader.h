#ifndef OUDS_CGRAPHICS_LOADER_H
#define OUDS_CGRAPHICS_LOADER_H

/* The door through which Graphics reaches the drawing libraries (Cairo, Pango, fontconfig,
 * FreeType, HarfBuzz, GLib, librsvg), which no target links: each library is opened with dlopen
 * when first needed (loader.c) and its functions are called through one table of typed function
 * pointers, filled with dlsym, in the loader style CHTTPLoader shares (CLoader.h). Portable C:
 * the same code on every CPU. Both the table and the wrappers below are generated from one list,
 * symbols.h. */

#include "CLoader.h"

/* The libraries' own headers (their types, constants and declarations), by the system-library
 * targets' shims: a relative path, so that this header also compiles without SwiftPM (the
 * aarch64 syntax check in scripts/check-loader). */
#include "../../CGraphics/shim.h"
#include "../../CRsvg/shim.h"

/* One number per function of the list. */
enum ouds_graphics_symbol {
#define OUDS_LIBRARY(id, soname, macos, package)
#define OUDS_FUNCTION(library, result, name, parameters, arguments) OUDS_SYMBOL_##name,
#define OUDS_PROCEDURE(library, name, parameters, arguments) OUDS_SYMBOL_##name,
#include "symbols.h"
#undef OUDS_LIBRARY
#undef OUDS_FUNCTION
#undef OUDS_PROCEDURE
  OUDS_SYMBOL_COUNT
};

/* The table: the address of each function once its library is loaded, NULL before. Written once
 * with release order (loader.c), read with acquire order by the wrappers. */
struct ouds_graphics_table {
#define OUDS_LIBRARY(id, soname, macos, package)
#define OUDS_FUNCTION(library, result, name, parameters, arguments) OUDS_LOADER_SLOT(name)
#define OUDS_PROCEDURE(library, name, parameters, arguments) OUDS_LOADER_SLOT(name)
#include "symbols.h"
#undef OUDS_LIBRARY
#undef OUDS_FUNCTION
#undef OUDS_PROCEDURE
};

extern struct ouds_graphics_table ouds_graphics_functions;

/* The address of a function whose slot is still empty: loads its library (or waits for a load
 * under way) and returns the filled slot. A library or function that cannot be found ends the
 * process with one line on standard error naming it, and exit status 1, as the dynamic loader
 * would at start; the entry points of Graphics call ouds_graphics_load_* first, so that this is
 * a typed error there instead. */
void *ouds_graphics_resolve(enum ouds_graphics_symbol symbol);

#define OUDS_GRAPHICS_FUNCTION(name)                                                      \
  __typeof__(name) *function = __atomic_load_n(&ouds_graphics_functions.name, __ATOMIC_ACQUIRE); \
  if (__builtin_expect(function == NULL, 0))                                              \
    function = (__typeof__(name) *)ouds_graphics_resolve(OUDS_SYMBOL_##name);

/* ouds_<name>: calls <name> through the table, loading its library on the first call. */
#define OUDS_LIBRARY(id, soname, macos, package)
#define OUDS_FUNCTION(library, result, name, parameters, arguments) \
  static inline result ouds_##name parameters {                    \
    OUDS_GRAPHICS_FUNCTION(name)                                   \
    return function arguments;                                     \
  }
#define OUDS_PROCEDURE(library, name, parameters, arguments) \
  static inline void ouds_##name parameters {               \
    OUDS_GRAPHICS_FUNCTION(name)                            \
    function arguments;                                     \
  }
#include "symbols.h"
#undef OUDS_LIBRARY
#undef OUDS_FUNCTION
#undef OUDS_PROCEDURE

/* Loads Cairo, Pango, fontconfig, FreeType, HarfBuzz and GLib (not librsvg) if they are not yet:
 * NULL once they are, else one line saying which library could not be loaded and why. Waits
 * for a load another thread started. */
const char *ouds_graphics_load_drawing(void);

/* fontconfig alone (and what it needs: FreeType, expat). */
const char *ouds_graphics_load_fontconfig(void);

/* The drawing libraries, and librsvg with GIO. */
const char *ouds_graphics_load_svg(void);

/* 1 when the library of this soname is loaded in the process, 0 when not, -1 when it is none of
 * the drawing libraries. */
int ouds_graphics_loaded(const char *soname);

/* librsvg's version numbers (loads librsvg); 0 when it cannot be loaded. */
int ouds_graphics_rsvg_version(unsigned *major, unsigned *minor, unsigned *micro);

#endif
