#include "rng.h"

#include "proto.h"

static uint32_t state = 0x6D2B79F5u;

static uint32_t step(void)
{
    uint32_t x = state;   /* Marsaglia xorshift32: period 2^32 - 1, never 0 */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return state = x;
}

void rng_seed(uint32_t seed)
{
    state = seed ? seed : 0x6D2B79F5u;
    for (uint8_t i = 0; i < 8; i++)
        step();
}

void rng_stir(uint32_t entropy)
{
    state ^= entropy * 0x9E3779B1u;   /* spread the few changing bits over the word */
    if (!state)
        state = 0x6D2B79F5u;
    step();
}

uint8_t rng_byte(void)
{
    return (uint8_t)(step() >> 24);    /* the high byte: the best-mixed bits of xorshift */
}

uint8_t rng_below(uint8_t n)
{
    /* Reject the top 256 % n values so every result has exactly the same number of byte
     * values behind it. For d4 and d8 nothing is rejected; the piecepack die's 6 faces
     * reject 4 of 256. */
    uint16_t limit = (uint16_t)(256 - 256 % n);
    uint8_t b;
    do
        b = rng_byte();
    while (b >= limit);
    return (uint8_t)(b % n);
}

uint8_t rng_roll(uint8_t mode)
{
    /* A piecepack die's faces null, ace, 2..5 go on the wire as 0..5, a dN's as 1..N */
    if (mode == DIE_PIECEPACK)
        return rng_below(6);
    return (uint8_t)(rng_below(mode) + 1);
}
