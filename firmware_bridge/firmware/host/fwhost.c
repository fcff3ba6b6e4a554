/* The firmware's protocol core and die generator built for the host, for ctypes (fuzzing
 * against the Python model, the fairness test). One board instance; output to a buffer. */
#include <string.h>

#include "../proto.h"
#include "../rng.h"

static fw_state fw;
static uint8_t *out_buf;
static int out_cap, out_len;

static void to_buffer(const uint8_t *frame, uint8_t len)
{
    if (out_len + len <= out_cap) {
        memcpy(out_buf + out_len, frame, len);
        out_len += len;
    } else {
        out_len = out_cap + 1;   /* tell the caller its buffer was too small */
    }
}

void host_init(uint16_t boot_id) { fw_init(&fw, boot_id, to_buffer); }

int host_feed(const uint8_t *data, int len, uint8_t *out, int cap)
{
    out_buf = out;
    out_cap = cap;
    out_len = 0;
    for (int i = 0; i < len; i++)
        fw_rx_byte(&fw, data[i]);
    return out_len;
}

int host_push_event(uint8_t kind, uint8_t a, uint8_t b, uint8_t *out, int cap)
{
    out_buf = out;
    out_cap = cap;
    out_len = 0;
    fw_push_event(&fw, kind, a, b);
    return out_len;
}

/* led_count, status_base, colors[128], effects[128], palette[48], brightness, blink, pulse,
 * die_mode: 310 bytes, the same fields as device.LedState. */
void host_state(uint8_t *out)
{
    out[0] = fw.led_count;
    out[1] = fw.status_base;
    memcpy(out + 2, fw.colors, FW_MAX_LEDS);
    memcpy(out + 2 + FW_MAX_LEDS, fw.effects, FW_MAX_LEDS);
    memcpy(out + 2 + 2 * FW_MAX_LEDS, fw.palette, sizeof fw.palette);
    uint8_t *t = out + 2 + 2 * FW_MAX_LEDS + sizeof fw.palette;
    t[0] = fw.brightness;
    t[1] = fw.blink_cs;
    t[2] = fw.pulse_cs;
    t[3] = fw.die_mode;
}

uint16_t host_crc16(const uint8_t *data, uint8_t len) { return fw_crc16(data, len); }
void host_rng_seed(uint32_t seed) { rng_seed(seed); }
void host_rng_stir(uint32_t entropy) { rng_stir(entropy); }
uint8_t host_rng_below(uint8_t n) { return rng_below(n); }
uint8_t host_rng_roll(uint8_t mode) { return rng_roll(mode); }
