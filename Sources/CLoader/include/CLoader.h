#ifndef OUDS_CLOADER_H
#define OUDS_CLOADER_H

/* The one way the package's C loaders open a C library when it is first needed and call it
 * through a table of typed function pointers: CGraphicsLoader (Cairo, Pango, fontconfig,
 * FreeType, HarfBuzz, GLib, librsvg) and CHTTPLoader (libmicrohttpd). No target links those
 * libraries, so the dynamic loader does not map them at start.
 *
 * Each loader keeps its libraries and functions in one list (CGraphicsLoader/include/symbols.h,
 * CHTTPLoader/include/http_symbols.h):
 *   OUDS_LIBRARY(id, soname, macOS file name, Debian package), in the order they are loaded;
 *   OUDS_FUNCTION(library id, result type, name, (parameters), (arguments));
 *   OUDS_PROCEDURE(library id, name, (parameters), (arguments)) for a function returning void;
 * and expands it, with the macros below, into the same things: a table with one typed slot per
 * function (OUDS_LOADER_SLOT); then CLoaderTables.h, included once by each loader, makes the
 * compile-time check of each entry against the library's header (OUDS_LOADER_CHECK), the enum of
 * its libraries, the libraries (OUDS_LOADER_LIBRARY) and the functions (OUDS_LOADER_SYMBOL) that
 * ouds_loader_open reads.
 * scripts/package reads the OUDS_LIBRARY lines of both lists for the .deb's Depends. */

#include <pthread.h>

/* The file dlopen is given: the soname on Linux, the file name on macOS. */
#if defined(__APPLE__)
#define OUDS_LOADER_FILE(soname, macos) macos
#else
#define OUDS_LOADER_FILE(soname, macos) soname
#endif

/* A library of a list: opened at most once; `failure` is NULL once it is loaded. */
struct ouds_library {
  const char *file;
  const char *package;
  pthread_mutex_t lock;
  /* 0 before the first attempt, 1 after it (read with acquire order) */
  int tried;
  void *handle;
  const char *failure;
  char message[512];
};

/* A function of a list: its slot in the table, its name, its library's index. */
struct ouds_symbol {
  void **slot;
  const char *name;
  int library;
};

/* Initializers of the two arrays a loader builds from its list. */
#define OUDS_LOADER_LIBRARY(soname, macos, package) \
  {OUDS_LOADER_FILE(soname, macos), package, PTHREAD_MUTEX_INITIALIZER, 0, NULL, NULL, {0}}
#define OUDS_LOADER_SYMBOL(table, name, library) {(void **)&(table).name, #name, library}

/* The table's slot of a function, typed as the library's header declares it. */
#define OUDS_LOADER_SLOT(name) __typeof__(name) *name;

/* An entry of the list must declare its function as the library's header does: a wrong result
 * or parameter type is a compile error rather than a wrong call. */
#define OUDS_LOADER_CHECK(result, name, parameters)                                      \
  _Static_assert(__builtin_types_compatible_p(__typeof__(&name), result(*) parameters), \
                 #name " differs from its declaration in the library's header");

/* Opens libraries[index] with dlopen(file, flags) if no call did yet (a call made while another
 * thread loads it waits for that load), and fills the slot of each of its functions in
 * `symbols` with dlsym (release order). NULL once the library is loaded; else, every time, one
 * line saying why it cannot be: "cannot load <soname> (Debian package <package>): <reason>" or
 * "<soname> has no function <name> (too old?)". */
const char *ouds_loader_open(struct ouds_library *libraries, int index,
                             const struct ouds_symbol *symbols, int symbol_count, int flags);

#endif
