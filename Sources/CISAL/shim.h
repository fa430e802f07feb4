#ifndef CISAL_SHIM_H
#define CISAL_SHIM_H
// Intel ISA-L (Debian libisal-dev): the streaming inflate and the CRC-32 zip entries are read
// with, both with run-time SIMD dispatch.
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#endif
