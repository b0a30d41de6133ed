/* The tables a loader builds from its list (see CLoader.h), written once for both loaders.
 * Textual: a loader's .c file defines
 *   OUDS_LOADER_LIST   the list's header, as a string ("symbols.h");
 *   OUDS_LOADER_TABLE  the struct of typed slots the functions' addresses go to;
 * then includes this file once, which gives it:
 *   a compile-time check of each entry against the library's header (OUDS_LOADER_CHECK);
 *   enum { OUDS_LIBRARY_<id>…, OUDS_LIBRARY_COUNT }, its libraries in the list's order;
 *   static struct ouds_library libraries[OUDS_LIBRARY_COUNT];
 *   static const struct ouds_symbol symbols[], its functions in the list's order;
 * and undefines the list's macros. */

#if !defined(OUDS_LOADER_LIST) || !defined(OUDS_LOADER_TABLE)
#error "define OUDS_LOADER_LIST and OUDS_LOADER_TABLE before including CLoaderTables.h"
#endif

#define OUDS_LIBRARY(id, soname, macos, package)
#define OUDS_FUNCTION(library, result, name, parameters, arguments) \
  OUDS_LOADER_CHECK(result, name, parameters)
#define OUDS_PROCEDURE(library, name, parameters, arguments) \
  OUDS_LOADER_CHECK(void, name, parameters)
#include OUDS_LOADER_LIST
#undef OUDS_LIBRARY
#undef OUDS_FUNCTION
#undef OUDS_PROCEDURE

enum {
#define OUDS_LIBRARY(id, soname, macos, package) OUDS_LIBRARY_##id,
#define OUDS_FUNCTION(library, result, name, parameters, arguments)
#define OUDS_PROCEDURE(library, name, parameters, arguments)
#include OUDS_LOADER_LIST
#undef OUDS_LIBRARY
#undef OUDS_FUNCTION
#undef OUDS_PROCEDURE
  OUDS_LIBRARY_COUNT
};

static struct ouds_library libraries[OUDS_LIBRARY_COUNT] = {
#define OUDS_LIBRARY(id, soname, macos, package) OUDS_LOADER_LIBRARY(soname, macos, package),
#define OUDS_FUNCTION(library, result, name, parameters, arguments)
#define OUDS_PROCEDURE(library, name, parameters, arguments)
#include OUDS_LOADER_LIST
#undef OUDS_LIBRARY
#undef OUDS_FUNCTION
#undef OUDS_PROCEDURE
};

static const struct ouds_symbol symbols[] = {
#define OUDS_LIBRARY(id, soname, macos, package)
#define OUDS_FUNCTION(library, result, name, parameters, arguments) \
  OUDS_LOADER_SYMBOL(OUDS_LOADER_TABLE, name, OUDS_LIBRARY_##library),
#define OUDS_PROCEDURE(library, name, parameters, arguments) \
  OUDS_LOADER_SYMBOL(OUDS_LOADER_TABLE, name, OUDS_LIBRARY_##library),
#include OUDS_LOADER_LIST
#undef OUDS_LIBRARY
#undef OUDS_FUNCTION
#undef OUDS_PROCEDURE
};
