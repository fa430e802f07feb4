#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H
// OpenSSL's libcrypto: message digests (SHA-256 with the CPU's SHA instructions), and Ed25519
// keys in PEM for signed packs.
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

// `BIO_get_mem_data` is a macro, which Swift does not import: the bytes a memory BIO holds.
static inline long ccrypto_bio_bytes(BIO *bio, char **bytes) { return BIO_get_mem_data(bio, bytes); }
#endif
