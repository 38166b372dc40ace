/* The C interface from C itself: the header compiles as C (C99), and a blur, a data op
 * and the error path work on the CPU reference, with no C++ in this program. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c_check.h"
#include "gpufilter_c.h"


int main(void) {
  enum { W = 9, H = 7 };
  uint8_t src[H][W][3], dst[H][W][3];
  const char* names[] = {"sigma"};
  const char* values[] = {"1.5"};
  gpufilter_request* blur = NULL;
  gpufilter_request* stats = NULL;
  gpufilter_request* bad = NULL;
  gpufilter_image in, out;
  double table[3 * 9];
  const char* layout = NULL;
  size_t count = 0;
  int x, y, c;

  CHECK(gpufilter_abi_version() == GPUFILTER_C_ABI_VERSION);
  CHECK(strstr(gpufilter_registry_json(), "\"name\":\"blur\"") != NULL);

  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x)
      for (c = 0; c < 3; ++c) src[y][x][c] = 100;  /* flat: a blur keeps it */
  in.data = src; in.width = W; in.height = H; in.pitch = sizeof src[0]; in.type = GPUFILTER_U8; in.channels = 3;
  out = in;
  out.data = dst;

  CHECK(gpufilter_request_create("blur", 1, names, values, NULL, NULL, 0, NULL, &blur) == GPUFILTER_OK);
  CHECK(gpufilter_request_run(blur, &in, &out, GPUFILTER_CPU, -1, NULL) == GPUFILTER_OK);
  for (y = 0; y < H; ++y)
    for (x = 0; x < W; ++x)
      for (c = 0; c < 3; ++c) CHECK(dst[y][x][c] == 100);

  CHECK(gpufilter_request_reach(blur, &x, &y) == GPUFILTER_OK && x == 5 && y == 5); /* ceil(3 * 1.5) */

  CHECK(gpufilter_request_create("stats", 0, NULL, NULL, NULL, NULL, 0, NULL, &stats) == GPUFILTER_OK);
  CHECK(gpufilter_request_reach(stats, &x, &y) == GPUFILTER_ERROR_INVALID_ARGUMENT);
  CHECK(gpufilter_request_data_layout(stats, &in, &layout, &count) == GPUFILTER_OK);
  CHECK(count == sizeof table / sizeof table[0] && strstr(layout, "\"mean\"") != NULL);
  CHECK(gpufilter_request_run_data(stats, &in, table, count, GPUFILTER_CPU, -1, NULL) == GPUFILTER_OK);
  CHECK(table[3] == 100.0); /* row 0 (channel 0), column 3 (mean) */

  values[0] = "1000";
  CHECK(gpufilter_request_create("blur", 1, names, values, NULL, NULL, 0, NULL, &bad) ==
        GPUFILTER_ERROR_INVALID_ARGUMENT);
  CHECK(bad == NULL && strstr(gpufilter_last_error(), "sigma") != NULL);

  gpufilter_request_destroy(blur);
  gpufilter_request_destroy(stats);
  puts("gpufilter C interface: ok");
  return 0;
}
