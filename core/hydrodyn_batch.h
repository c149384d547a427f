/* The moving-water forces of many wet triangles at once: the triangle
 * pass gathers each wet part (centroid, normal, area) into a batch and the
 * batch runs four parts per instruction (SSE2, float). Per part this is
 * the arithmetic of hydrodyn.h: friction, pressure drag or suction, and
 * slamming, with x^f from a polynomial exp2(f log2 x) instead of pow (a
 * pow per part would cost more than all the rest). */
#ifndef NAVAL_HYDRODYN_BATCH_H
#define NAVAL_HYDRODYN_BATCH_H

#include <stdint.h>

#include "hydrodyn.h"

#define HYDRODYN_BATCH 64 /* a multiple of 4 */

typedef struct hydrodyn_batch {
    uint32_t count;
    float cx[HYDRODYN_BATCH], cy[HYDRODYN_BATCH], cz[HYDRODYN_BATCH]; /* centroid, body frame */
    float nx[HYDRODYN_BATCH], ny[HYDRODYN_BATCH], nz[HYDRODYN_BATCH]; /* unit outward normal */
    float area[HYDRODYN_BATCH];     /* submerged area */
    float tri_area[HYDRODYN_BATCH]; /* the original triangle's (slamming's S_j) */
    float prev[HYDRODYN_BATCH];     /* last step's swept rate A v.n (slamming) */
    float swept[HYDRODYN_BATCH];    /* out: this step's */
    uint32_t index[HYDRODYN_BATCH]; /* triangle, for the caller's slamming state */
} hydrodyn_batch;

/* Forces and moments (about the CG, body frame) of the batch's parts added
 * to the sums; slamming's apart. Fills swept[]. Empties the batch. */
void hydrodyn_batch_run(const hydrodyn_frame* fr, hydrodyn_batch* b, vec3* force, vec3* torque, vec3* slam_force,
                        vec3* slam_torque);

/* x^p for x in [0, 1], p in (0, 10]: the batch's approximation, to ~2e-6
 * relative (exposed for its test). */
float hydrodyn_pow_unit(float x, float p);

#endif
