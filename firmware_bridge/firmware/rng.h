/* The die's generator: xorshift32 stirred with hardware entropy; unbiased by rejection. */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

void rng_seed(uint32_t seed);
void rng_stir(uint32_t entropy);     /* mix in fresh entropy (e.g. the button press time) */
uint8_t rng_byte(void);
uint8_t rng_below(uint8_t n);        /* uniform in 0..n-1, n >= 1 */
uint8_t rng_roll(uint8_t mode);      /* a roll in DIE_MODE mode: 0..5 piecepack, else 1..mode */

#endif
