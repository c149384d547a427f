// SPDX-License-Identifier: MIT
#include "test_png.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>

/* libpng reports a failure by longjmp: everything the jump could skip is
 * volatile or freed after it. */
int test_write_png(const char* path, int w, int h, int depth, int type, unsigned (*value)(int, int)) {
    FILE* f = fopen(path, "wb");
    if (!f) return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    const int channels = type == PNG_COLOR_TYPE_RGB ? 3 : 1, bytes = depth / 8;
    unsigned char* volatile row = malloc((size_t)w * channels * bytes);
    volatile int rc = -1;
    if (png && info && row && !setjmp(png_jmpbuf(png))) {
        png_init_io(png, f);
        png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, depth, type, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_write_info(png, info);
        for (int j = 0; j < h; j++) {
            for (int i = 0; i < w; i++)
                for (int c = 0; c < channels; c++) {
                    unsigned v = value(i, j);
                    unsigned char* p = row + ((size_t)i * channels + c) * bytes;
                    if (bytes == 2)
                        p[0] = (unsigned char)(v >> 8), p[1] = (unsigned char)v;
                    else
                        p[0] = (unsigned char)(v >> 8);
                }
            png_write_row(png, row);
        }
        png_write_end(png, NULL);
        rc = 0;
    }
    png_destroy_write_struct(&png, &info);
    free(row);
    if (fclose(f)) rc = -1;
    return rc;
}
