/* The size of a PNG from its IHDR chunk, to check what gnuplot wrote. */
#include <string.h>

#include "ana.h"

static uint32_t be32(const unsigned char *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

int ana_png_size(const char *path, uint32_t *width, uint32_t *height)
{
    static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    unsigned char b[24];
    FILE *f = fopen(path, "rb");
    if (!f)
        return ANA_EIO;
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    /* Signature, then the first chunk: length 13, type IHDR, width, height. */
    if (n != sizeof b || memcmp(b, sig, 8) || be32(b + 8) != 13 || memcmp(b + 12, "IHDR", 4))
        return ANA_EIO;
    *width = be32(b + 16);
    *height = be32(b + 20);
    return *width && *height ? ANA_EOK : ANA_EIO;
}
