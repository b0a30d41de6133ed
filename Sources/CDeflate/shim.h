#ifndef OUDS_CDEFLATE_SHIM_H
#define OUDS_CDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
