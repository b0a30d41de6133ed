#ifndef OUDS_CZLIB_SHIM_H
#define OUDS_CZLIB_SHIM_H
#include <zlib.h>
#endif
