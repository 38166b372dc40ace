/* The C tests' one assertion: on failure, says where and what the library said, and
   makes the test's main() return 1. */
#ifndef GPUFILTER_C_CHECK_H
#define GPUFILTER_C_CHECK_H

#include <stdio.h>

#include "gpufilter_c.h"

#define CHECK(condition)                                                    \
  do {                                                                      \
    if (!(condition)) {                                                     \
      fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__, #condition,   \
              gpufilter_last_error());                                      \
      return 1;                                                             \
    }                                                                       \
  } while (0)

#endif
