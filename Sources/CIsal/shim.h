#ifndef OUDS_CISAL_SHIM_H
#define OUDS_CISAL_SHIM_H
#include <isa-l/igzip_lib.h>

/// The working memory igzip's level 1 wants by default (its hash table and 64 Ki tokens), as a
/// constant Swift can read: the header's macro is an expression of other macros.
static const uint32_t ouds_isal_level1_buffer_bytes = ISAL_DEF_LVL1_DEFAULT;
#endif
