#ifndef OUDS_CCOMMONMARK_SHIM_H
#define OUDS_CCOMMONMARK_SHIM_H
#include <cmark.h>
#endif
