/* What a C caller can get wrong is refused with GPUFILTER_ERROR_INVALID_ARGUMENT and a
 * message naming it, never read through: NULL arrays with a non-zero count, negative
 * counts, and pitches whose rows would wrap past the end of the address space. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c_check.h"
#include "gpufilter_c.h"


/* `status` is INVALID_ARGUMENT and the message holds `word`. */
static int refused(gpufilter_status status, const char* word) {
  if (status != GPUFILTER_ERROR_INVALID_ARGUMENT) {
    fprintf(stderr, "status %d, not INVALID_ARGUMENT (%s)\n", (int)status, gpufilter_last_error());
    return 0;
  }
  if (strstr(gpufilter_last_error(), word) == NULL) {
    fprintf(stderr, "the message does not name '%s': %s\n", word, gpufilter_last_error());
    return 0;
  }
  return 1;
}

static int null_arrays_with_counts(void) {
  const char* names[] = {"sigma"};
  const char* values[] = {"1.5"};
  const char* inputs[] = {"in.png"};
  const double border_value[] = {1.0, 2.0};
  gpufilter_request* request = NULL;
  const char* json = NULL;

  CHECK(refused(gpufilter_request_create("blur", 1, NULL, values, NULL, NULL, 0, NULL, &request), "names"));
  CHECK(request == NULL);
  CHECK(refused(gpufilter_request_create("blur", 1, names, NULL, NULL, NULL, 0, NULL, &request), "values"));
  CHECK(refused(gpufilter_request_create("blur", -1, names, values, NULL, NULL, 0, NULL, &request), "count"));
  CHECK(refused(gpufilter_request_create("blur", 0, NULL, NULL, "constant", NULL, 3, NULL, &request),
                "border_value"));
  CHECK(refused(gpufilter_request_create("blur", 0, NULL, NULL, "constant", border_value, -2, NULL, &request),
                "border_value_count"));
  CHECK(request == NULL);
  /* The same with the arrays given: accepted. */
  CHECK(gpufilter_request_create("blur", 1, names, values, "constant", border_value, 2, NULL, &request) ==
        GPUFILTER_OK);

  CHECK(refused(gpufilter_batch(request, 3, NULL, "out", "", NULL, 2, 0, NULL, 1, 0, 1, 95, 0, &json), "inputs"));
  CHECK(refused(gpufilter_batch(request, -1, inputs, "out", "", NULL, 2, 0, NULL, 1, 0, 1, 95, 0, &json), "count"));
  CHECK(refused(gpufilter_batch(request, 1, inputs, "out", "", NULL, 1, 2, NULL, 1, 0, 1, 95, 0, &json), "devices"));
  gpufilter_request_destroy(request);
  return 0;
}

static int wild_pitches(void) {
  enum { W = 4, H = 3 };
  uint8_t src[H][W], dst[H][W];
  double table[9];
  gpufilter_request* invert = NULL;
  gpufilter_request* stats = NULL;
  gpufilter_image in, out;
  size_t count = 0;

  in.data = src; in.width = W; in.height = H; in.pitch = W; in.type = GPUFILTER_U8; in.channels = 1;
  memset(src, 7, sizeof src);
  out = in;
  out.data = dst;
  CHECK(gpufilter_request_create("invert", 0, NULL, NULL, NULL, NULL, 0, NULL, &invert) == GPUFILTER_OK);
  CHECK(gpufilter_request_create("stats", 0, NULL, NULL, NULL, NULL, 0, NULL, &stats) == GPUFILTER_OK);
  CHECK(gpufilter_request_data_layout(stats, &in, NULL, &count) == GPUFILTER_OK);
  CHECK(count <= sizeof table / sizeof table[0]);

  /* Row 1 at data + SIZE_MAX is data - 1: the pitch wraps round instead of reaching on. */
  in.pitch = SIZE_MAX;
  CHECK(refused(gpufilter_request_run(invert, &in, &out, GPUFILTER_CPU, -1, NULL), "pitch"));
  CHECK(refused(gpufilter_request_run_data(stats, &in, table, count, GPUFILTER_CPU, -1, NULL), "pitch"));
  CHECK(refused(gpufilter_file_write("never.png", &in, 95, -1, 0), "pitch"));
  CHECK(refused(gpufilter_copy(&in, &out, -1, NULL, 1), "pitch"));
  /* Past the largest object the address space can hold, without wrapping size_t. */
  in.pitch = SIZE_MAX / 2;
  CHECK(refused(gpufilter_request_run(invert, &in, &out, GPUFILTER_CPU, -1, NULL), "pitch"));
  in.pitch = W;
  out.pitch = SIZE_MAX - 1;
  CHECK(refused(gpufilter_request_run(invert, &in, &out, GPUFILTER_CPU, -1, NULL), "pitch"));
  /* The same views with their true pitches: run. */
  out.pitch = W;
  CHECK(gpufilter_request_run(invert, &in, &out, GPUFILTER_CPU, -1, NULL) == GPUFILTER_OK);
  CHECK(dst[H - 1][W - 1] == 255 - 7);

  gpufilter_request_destroy(invert);
  gpufilter_request_destroy(stats);
  return 0;
}

int main(void) {
  if (null_arrays_with_counts() != 0 || wild_pitches() != 0) return 1;
  puts("gpufilter C arguments: ok");
  return 0;
}
