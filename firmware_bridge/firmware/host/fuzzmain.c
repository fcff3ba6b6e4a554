/* Memory-safety fuzz driver: the firmware parser under AddressSanitizer and UBSan eats
 * stdin (random and mutated frames written by the tests) in odd-sized chunks. */
#include <stdio.h>

#include "../proto.h"

static fw_state fw;
static unsigned long frames_out;

static void count(const uint8_t *frame, uint8_t len)
{
    (void)frame;
    if (len == 0 || frame[len - 1] != 0)
        __builtin_trap();   /* every frame the board sends must end in its delimiter */
    frames_out++;
}

int main(void)
{
    fw_init(&fw, 0x1234, count);
    int c;
    unsigned long n = 0, done = 0;
    while ((c = getchar()) != EOF) {
        done += fw_rx_byte(&fw, (uint8_t)c);
        if (++n % 4099 == 0)
            fw_push_event(&fw, EVENT_ROLL, 8, (uint8_t)(n % 8 + 1));
    }
    printf("bytes %lu frames %lu replies %lu\n", n, done, frames_out);
    return 0;
}
