#include <brotli/decode.h>
