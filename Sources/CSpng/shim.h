#ifndef OUDS_CSPNG_SHIM_H
#define OUDS_CSPNG_SHIM_H
#include <spng.h>
#endif
