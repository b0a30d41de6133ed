#ifndef OUDS_CCRYPTO_SHIM_H
#define OUDS_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
