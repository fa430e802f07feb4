#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H
// OpenSSL's message digests (libcrypto), for SHA-256 with the CPU's SHA instructions.
#include <openssl/evp.h>
#endif
